import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { FocusEventHandler, FormEventHandler, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { Logo } from '../../../components/logo.js';

/** The frame of the layout-less auth screens: logo, heading, an error line, the form. */
export function AuthCard({ title, error, children }: { title: string; error?: string; children: ReactNode }) {
  return (
    <Container component="main" maxWidth="xs" sx={{ py: { xs: 4, sm: 8 } }}>
      <Box sx={{ display: 'flex', justifyContent: 'center', mb: 3 }}>
        <Logo />
      </Box>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography variant="h1" sx={{ fontSize: '1.75rem', mb: 3, textAlign: 'center' }}>
          {title}
        </Typography>
        <FormError message={error} sx={{ mb: 2 }} />
        {children}
      </Paper>
    </Container>
  );
}

/** The line under an auth form that leads to another screen: "Already have an account? Log In". */
export function AuthCardLink({ prompt, to, children }: { prompt?: string; to: string; children: ReactNode }) {
  return (
    <Typography sx={{ textAlign: 'center' }}>
      {prompt === undefined ? undefined : <>{prompt} </>}
      <Link component={RouterLink} to={to}>
        {children}
      </Link>
    </Typography>
  );
}

/**
 * An auth screen's form: its fields in a column, checked by the app (`noValidate`). POST: should the
 * prerendered form ever be sent without a script, a password stays out of the address.
 */
export function AuthForm({
  onSubmit,
  onFocus,
  children,
}: {
  onSubmit: FormEventHandler;
  onFocus: FocusEventHandler;
  children: ReactNode;
}) {
  return (
    <Box
      component="form"
      method="post"
      noValidate
      onSubmit={onSubmit}
      onFocus={onFocus}
      sx={{ display: 'grid', gap: 2 }}
    >
      {children}
    </Box>
  );
}
