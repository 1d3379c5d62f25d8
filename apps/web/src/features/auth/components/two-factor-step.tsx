import { ErrorCode } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldProps } from '../../../components/form-field.js';
import Button from '@mui/material/Button';
import { ApiError, errorText, failureText } from '../../../lib/api-error.js';
import { loginWithCode } from '../api/login.js';
import { AuthCard, AuthForm } from './auth-card.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';

type Mode = 'app' | 'recovery';

const LOAD_SCHEMA = {
  app: () => import('../schemas.js').then((module) => module.AuthenticatorCodeFormSchema),
  recovery: () => import('../schemas.js').then((module) => module.RecoveryCodeFormSchema),
} as const;

function CodeForm({
  mode,
  challengeToken,
  onSignedIn,
  onRestart,
  onError,
}: {
  mode: Mode;
  challengeToken: string;
  onSignedIn: () => unknown;
  onRestart: (message: string) => void;
  onError: (message: string | undefined) => void;
}) {
  const { onFormFocus, resolver } = useSchemaOnDemand(LOAD_SCHEMA[mode]);
  const form = useForm<{ code: string }>({
    mode: 'onSubmit',
    resolver,
    defaultValues: { code: '' },
  });

  const onSubmit = form.handleSubmit(async ({ code }) => {
    onError(undefined);
    try {
      await loginWithCode({ challenge_token: challengeToken, code });
      await onSignedIn();
    } catch (failure) {
      const errorCode = failure instanceof ApiError ? failure.code : undefined;
      if (errorCode === ErrorCode.invalid_two_factor_challenge) {
        onRestart(failureText((failure as ApiError).body));
        return;
      }
      if (errorCode === ErrorCode.invalid_two_factor_code) {
        form.setError(
          'code',
          { type: 'server', message: failureText((failure as ApiError).body) },
          { shouldFocus: true },
        );
        return;
      }
      onError(errorText(failure));
    }
  });

  return (
    <AuthForm onSubmit={onSubmit} onFocus={onFormFocus}>
      {mode === 'app' ? (
        <TextField
          {...fieldProps(form, 'code')}
          label="Authentication code"
          autoComplete="one-time-code"
          autoFocus
          required
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
        />
      ) : (
        <TextField
          {...fieldProps(form, 'code')}
          label="Recovery code"
          autoComplete="off"
          autoFocus
          required
          fullWidth
          slotProps={{ htmlInput: { maxLength: 64, spellCheck: false } }}
        />
      )}
      <Button type="submit" variant="contained" size="large" loading={form.formState.isSubmitting}>
        Verify
      </Button>
    </AuthForm>
  );
}

/**
 * Log in's second step (TOTP-LOGIN-3): the six-digit code from the authenticator app, or one of the
 * recovery codes. A challenge that expired sends the person back to the password step with the reason.
 */
export function TwoFactorStep({
  challengeToken,
  onSignedIn,
  onRestart,
}: {
  challengeToken: string;
  onSignedIn: () => unknown;
  onRestart: (message: string) => void;
}) {
  const [mode, setMode] = useState<Mode>('app');
  const [error, setError] = useState<string>();

  return (
    <AuthCard title="Two-factor authentication" error={error}>
      <Typography id="two-factor-hint" sx={{ mb: 2 }}>
        {mode === 'app'
          ? 'Enter the 6-digit code from your authenticator app.'
          : 'Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once.'}
      </Typography>
      <CodeForm
        key={mode}
        mode={mode}
        challengeToken={challengeToken}
        onSignedIn={onSignedIn}
        onRestart={onRestart}
        onError={setError}
      />
      <Box sx={{ display: 'grid', gap: 1, mt: 2, justifyItems: 'center' }}>
        <Link
          component="button"
          type="button"
          onClick={() => {
            setError(undefined);
            setMode(mode === 'app' ? 'recovery' : 'app');
          }}
        >
          {mode === 'app' ? 'Use a recovery code instead' : 'Use your authenticator app instead'}
        </Link>
        <Link component="button" type="button" onClick={() => onRestart('')}>
          Back to log in
        </Link>
      </Box>
    </AuthCard>
  );
}
