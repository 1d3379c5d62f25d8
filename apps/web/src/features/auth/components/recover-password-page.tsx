import Alert from '@mui/material/Alert';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldProps } from '../../../components/form-field.js';
import Button from '@mui/material/Button';
import { errorText } from '../../../lib/api-error.js';
import { requestPasswordRecovery } from '../api/password-recovery.js';
import type { RecoverPasswordFormOutput, RecoverPasswordFormValues } from '../schemas.js';
import { AuthCard, AuthCardLink, AuthForm } from './auth-card.js';
import { paths } from '../../../config/paths.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';

const loadSchema = () => import('../schemas.js').then((module) => module.RecoverPasswordFormSchema);

export function RecoverPasswordPage() {
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<string>();
  const { onFormFocus, resolver } = useSchemaOnDemand(loadSchema);
  const form = useForm<RecoverPasswordFormValues, unknown, RecoverPasswordFormOutput>({
    mode: 'onBlur',
    resolver,
    defaultValues: { email: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    setSent(undefined);
    try {
      const answer = await requestPasswordRecovery(values.email);
      setSent(answer.message);
    } catch (failure) {
      setError(errorText(failure));
    }
  });

  return (
    <AuthCard title="Password Recovery" error={error}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Enter the e-mail address of your account and we will send you a link to choose a new password.
      </Typography>
      {sent ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {sent}
        </Alert>
      ) : null}
      <AuthForm onSubmit={onSubmit} onFocus={onFormFocus}>
        <TextField {...fieldProps(form, 'email')} label="Email" type="email" autoComplete="email" required fullWidth />
        <Button type="submit" variant="contained" size="large" loading={form.formState.isSubmitting}>
          Continue
        </Button>
        <AuthCardLink prompt="Remembered it?" to={paths.login}>
          Log In
        </AuthCardLink>
      </AuthForm>
    </AuthCard>
  );
}
