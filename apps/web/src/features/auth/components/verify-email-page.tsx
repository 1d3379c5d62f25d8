import { emailVerificationMessages } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { paths } from '../../../config/paths.js';
import { errorText } from '../../../lib/api-error.js';
import { getStoredUser, isLoggedIn, setStoredUser } from '../../../lib/session.js';
import { verifyEmail } from '../api/verify-email.js';
import { AuthCard, AuthCardLink } from './auth-card.js';

type Outcome = { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/**
 * /verify-email (VERIFY-2): the mailed link's target, signed in or not. The token is read once, taken
 * out of the address (it must not linger in history or be shared by copying the URL), and sent by POST.
 */
export function VerifyEmailPage() {
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token') ?? '');
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token === '' ? { kind: 'failed', message: emailVerificationMessages.invalidToken } : { kind: 'working' },
  );
  const started = useRef(false);

  useEffect(() => {
    // Once: a link works once, and a development re-run of effects must not spend it twice.
    if (started.current) return;
    started.current = true;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (token === '') return;
    verifyEmail({ token }).then(
      (answer) => {
        // Signed in on this browser as the account that moved: the stored record follows.
        const stored = getStoredUser();
        if (answer.changed && stored && isLoggedIn()) setStoredUser({ ...stored, email: answer.email });
        setOutcome({ kind: 'done', message: answer.message });
      },
      (failure: unknown) => setOutcome({ kind: 'failed', message: errorText(failure) }),
    );
  }, [token]);

  const next = isLoggedIn()
    ? { to: paths.settings.profile, label: 'Go to your settings' }
    : { to: paths.login, label: 'Log In' };

  return (
    <AuthCard title="Verify E-mail" error={outcome.kind === 'failed' ? outcome.message : undefined}>
      {outcome.kind === 'working' ? (
        <Box role="status" sx={{ display: 'flex', gap: 2, alignItems: 'center', justifyContent: 'center' }}>
          <CircularProgress size={24} aria-hidden="true" />
          <Typography>Verifying your e-mail address...</Typography>
        </Box>
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }}>
          {outcome.kind === 'done' ? (
            <Alert severity="success" role="status">
              {outcome.message}
            </Alert>
          ) : (
            <Typography>
              {isLoggedIn()
                ? 'You can send yourself a new link from your settings.'
                : 'Log in to send yourself a new link from your settings.'}
            </Typography>
          )}
          <AuthCardLink to={next.to}>{next.label}</AuthCardLink>
        </Box>
      )}
    </AuthCard>
  );
}
