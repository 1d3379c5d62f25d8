import type { UserMe } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import { errorText } from '../../../lib/api-error.js';
import Button from '@mui/material/Button';
import { useResendVerificationEmail } from '../api/email-verification.js';

/**
 * Above the settings tabs while the account's address is unverified (VERIFY-4): why it matters,
 * and a button that mails a new link. The answer (sent, or the limit's message) replaces the text.
 */
export function EmailVerificationBanner({ me }: { me: UserMe | undefined }) {
  const resend = useResendVerificationEmail();
  if (!me || me.email_verified) return null;
  const answer = resend.isSuccess ? resend.data.message : resend.isError ? errorText(resend.error) : undefined;
  return (
    <Alert
      severity={resend.isError ? 'error' : resend.isSuccess ? 'success' : 'warning'}
      sx={{ mb: 3, alignItems: { xs: 'flex-start', sm: 'center' }, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
      action={
        <Button
          color="inherit"
          size="small"
          loading={resend.isPending}
          onClick={() => resend.mutate()}
          sx={{ whiteSpace: { sm: 'nowrap' } }}
        >
          Resend verification e-mail
        </Button>
      }
    >
      <span role="status">
        {answer ??
          `Verify your e-mail address to subscribe to a plan and download files: follow the link we sent to ${me.email}.`}
      </span>
    </Alert>
  );
}
