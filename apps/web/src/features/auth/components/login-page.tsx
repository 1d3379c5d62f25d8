import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate } from 'react-router';
import { fieldProps, passwordFieldProps } from '../../../components/form-field.js';
import Button from '@mui/material/Button';
import { CurrentPasswordField } from '../../../components/password-field.js';
import { errorText } from '../../../lib/api-error.js';
import { login } from '../api/login.js';
import type { LoginFormOutput, LoginFormValues } from '../schemas.js';
import { AuthCard, AuthCardLink, AuthForm } from './auth-card.js';
import { TwoFactorStep } from './two-factor-step.js';
import { SsoSignIn } from './sso-sign-in.js';
import { paths } from '../../../config/paths.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';

const loadSchema = () => import('../schemas.js').then((module) => module.LoginFormFieldsSchema);

export function LoginPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  // Set once the password was right for an account with two-factor sign-in (TOTP-LOGIN-1).
  const [challengeToken, setChallengeToken] = useState<string>();
  const { onFormFocus, resolver } = useSchemaOnDemand(loadSchema);
  const form = useForm<LoginFormValues, unknown, LoginFormOutput>({
    mode: 'onBlur',
    resolver,
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      const outcome = await login(values);
      if (outcome.twoFactor) {
        setChallengeToken(outcome.challengeToken);
        return;
      }
      await navigate('/');
    } catch (failure) {
      setError(errorText(failure));
    }
  });

  if (challengeToken) {
    return (
      <TwoFactorStep
        challengeToken={challengeToken}
        onSignedIn={() => navigate('/')}
        onRestart={(message) => {
          setChallengeToken(undefined);
          setError(message || undefined);
          form.resetField('password');
        }}
      />
    );
  }

  return (
    <AuthCard title="Log In" error={error}>
      <AuthForm onSubmit={onSubmit} onFocus={onFormFocus}>
        <TextField
          {...fieldProps(form, 'username')}
          label="Email"
          type="email"
          autoComplete="username"
          required
          fullWidth
        />
        <CurrentPasswordField {...passwordFieldProps(form, 'password')} />
        <Link component={RouterLink} to={paths.recoverPassword} sx={{ justifySelf: 'end' }}>
          Forgot Password?
        </Link>
        <Button type="submit" variant="contained" size="large" loading={form.formState.isSubmitting}>
          Log In
        </Button>
        <AuthCardLink prompt="Don't have an account?" to={paths.signup}>
          Sign Up
        </AuthCardLink>
      </AuthForm>
      <SsoSignIn />
    </AuthCard>
  );
}
