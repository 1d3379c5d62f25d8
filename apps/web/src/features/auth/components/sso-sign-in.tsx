import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldProps } from '../../../components/form-field.js';
import { errorText } from '../../../lib/api-error.js';
import { startSso } from '../api/sso.js';
import type { SsoStartFormOutput, SsoStartFormValues } from '../schemas.js';
import { AuthForm } from './auth-card.js';
import { FormError } from '../../../components/form-error.js';
import { useSchemaOnDemand } from '../../../lib/schema-on-demand.js';

const loadSchema = () => import('../schemas.js').then((module) => module.SsoStartFormSchema);

/**
 * "Sign in with SSO" below the login form (SSO-2): the person's e-mail picks their organisation's
 * identity provider, and the browser goes there.
 */
export function SsoSignIn() {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const { onFormFocus, resolver } = useSchemaOnDemand(loadSchema);
  const form = useForm<SsoStartFormValues, unknown, SsoStartFormOutput>({
    mode: 'onBlur',
    resolver,
    defaultValues: { email: '' },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      window.location.assign(await startSso(values.email));
    } catch (failure) {
      setError(errorText(failure));
    }
  });

  return (
    <Box component="section" aria-label="Single sign-on" sx={{ mt: 3, display: 'grid', gap: 2 }}>
      <Divider>or</Divider>
      {open ? (
        <AuthForm onSubmit={onSubmit} onFocus={onFormFocus}>
          <FormError message={error} />
          <TextField
            {...fieldProps(form, 'email')}
            label="Work email"
            type="email"
            autoComplete="email"
            autoFocus
            required
            fullWidth
          />
          <Button type="submit" variant="outlined" size="large" loading={form.formState.isSubmitting}>
            Continue with SSO
          </Button>
        </AuthForm>
      ) : (
        <Button variant="outlined" size="large" onClick={() => setOpen(true)}>
          Sign in with SSO
        </Button>
      )}
    </Box>
  );
}
