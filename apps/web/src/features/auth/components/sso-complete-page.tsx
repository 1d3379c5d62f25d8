import { SSO_CALLBACK_ERRORS, type SsoCallbackError } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { passwordFieldProps } from '../../../components/form-field.js';
import Button from '@mui/material/Button';
import { CurrentPasswordField } from '../../../components/password-field.js';
import { paths } from '../../../config/paths.js';
import { errorText } from '../../../lib/api-error.js';
import { exchangeSsoCode, linkSsoAccount } from '../api/sso.js';
import type { SsoLinkFormOutput, SsoLinkFormValues } from '../schemas.js';
import { AuthCard, AuthCardLink, AuthForm } from './auth-card.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';

const loadSchema = () => import('../schemas.js').then((module) => module.SsoLinkFormSchema);

type Step = { kind: 'working' } | { kind: 'failed'; message: string } | { kind: 'link'; email: string; code: string };

function callbackError(value: string | null): string {
  return value !== null && Object.hasOwn(SSO_CALLBACK_ERRORS, value)
    ? SSO_CALLBACK_ERRORS[value as SsoCallbackError]
    : SSO_CALLBACK_ERRORS.sso_failed;
}

/**
 * /login/sso (SSO-4, SSO-5): where the server sends the browser back from the identity provider,
 * with a one-time code (or an error) in the fragment, which never reaches a server or a log. The
 * code is taken out of the address at once and traded for a session by POST.
 */
export function SsoCompletePage() {
  const navigate = useNavigate();
  // Read once: the fragment is removed from the address as soon as the page is up.
  const [received] = useState(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    return { code: fragment.get('code'), error: fragment.get('error') };
  });
  const [step, setStep] = useState<Step>(() =>
    received.code ? { kind: 'working' } : { kind: 'failed', message: callbackError(received.error) },
  );
  const started = useRef(false);

  useEffect(() => {
    // Once: the code works once, and a development re-run of effects must not spend it twice.
    if (started.current) return;
    started.current = true;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    const code = received.code;
    if (!code) return;
    exchangeSsoCode(code).then(
      async (outcome) => {
        if (outcome.linkRequiredFor) setStep({ kind: 'link', email: outcome.linkRequiredFor, code });
        else await navigate('/');
      },
      (failure: unknown) => setStep({ kind: 'failed', message: errorText(failure) }),
    );
  }, [navigate, received]);

  if (step.kind === 'link') {
    return <LinkStep email={step.email} code={step.code} onDone={() => navigate('/')} />;
  }
  return (
    <AuthCard title="Single Sign-On" error={step.kind === 'failed' ? step.message : undefined}>
      {step.kind === 'working' ? (
        <Box role="status" sx={{ display: 'flex', gap: 2, alignItems: 'center', justifyContent: 'center' }}>
          <CircularProgress size={24} aria-hidden="true" />
          <Typography>Signing you in...</Typography>
        </Box>
      ) : (
        <AuthCardLink to={paths.login}>Back to Log In</AuthCardLink>
      )}
    </AuthCard>
  );
}

/** An account with this address exists: its password, once, links it to single sign-on (SSO-5). */
function LinkStep({ email, code, onDone }: { email: string; code: string; onDone: () => Promise<void> | void }) {
  const [error, setError] = useState<string>();
  const { onFormFocus, resolver } = useSchemaOnDemand(loadSchema);
  const form = useForm<SsoLinkFormValues, unknown, SsoLinkFormOutput>({
    mode: 'onBlur',
    resolver,
    defaultValues: { password: '' },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      await linkSsoAccount(code, values.password);
      await onDone();
    } catch (failure) {
      setError(errorText(failure));
    }
  });
  return (
    <AuthCard title="Link Your Account" error={error}>
      <AuthForm onSubmit={onSubmit} onFocus={onFormFocus}>
        <Typography>
          An account with {email} already exists. Enter its password once to link it to single sign-on.
        </Typography>
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <CurrentPasswordField {...passwordFieldProps(form, 'password')} />
        <Button type="submit" variant="contained" size="large" loading={form.formState.isSubmitting}>
          Link and Sign In
        </Button>
        <AuthCardLink to={paths.login}>Back to Log In</AuthCardLink>
      </AuthForm>
    </AuthCard>
  );
}
