import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import Button from '@mui/material/Button';
import { errorText } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toast-store.js';
import { resetPassword } from '../api/password-recovery.js';
import type { ResetPasswordFormOutput, ResetPasswordFormValues } from '../schemas.js';
import { AuthCard, AuthCardLink, AuthForm } from './auth-card.js';
import { NewPasswordFields } from '../../../components/new-password-fields.js';
import { paths } from '../../../config/paths.js';
import { useInBrowser } from '../../../lib/use-signed-in.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';

const loadSchema = () => import('../schemas.js').then((module) => module.ResetPasswordFormSchema);

/** The reset link's target: the token comes from the query string. */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  // Prerendered without a query: the screen hydrates as for a link with its token, then tells.
  const incomplete = useInBrowser() && token === '';
  const [error, setError] = useState<string>();
  const { onFormFocus, resolver } = useSchemaOnDemand(loadSchema);
  const form = useForm<ResetPasswordFormValues, unknown, ResetPasswordFormOutput>({
    mode: 'onBlur',
    resolver,
    defaultValues: { new_password: '', confirm_password: '' },
  });
  const password = form.watch('new_password');

  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      const answer = await resetPassword({ token, new_password: values.new_password });
      showToast(answer.message, 'success');
      await navigate(paths.login);
    } catch (failure) {
      setError(errorText(failure));
    }
  });

  return (
    <AuthCard title="Reset Password" error={incomplete ? 'This reset link is incomplete: it carries no token.' : error}>
      <AuthForm onSubmit={onSubmit} onFocus={onFormFocus}>
        <NewPasswordFields form={form} name="new_password" label="New Password" password={password} />
        <Button
          type="submit"
          variant="contained"
          size="large"
          loading={form.formState.isSubmitting}
          disabled={incomplete}
        >
          Reset Password
        </Button>
        <AuthCardLink prompt="Need a new link?" to={paths.recoverPassword}>
          Recover password
        </AuthCardLink>
      </AuthForm>
    </AuthCard>
  );
}
