import type { TwoFactorSetup } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { errorText } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toast-store.js';
import { twoFactorStatusQueryOptions, useBeginTwoFactorSetup } from '../api/two-factor.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import { FormError } from '../../../components/form-error.js';
import { TabHeading } from '../../../components/tab-heading.js';

// The forms (react-hook-form, zod) load when one shows: the tab itself needs neither.
const SetupStep = lazy(() => import('./two-factor-forms.js').then((m) => ({ default: m.SetupStep })));
const DisableForm = lazy(() => import('./two-factor-forms.js').then((m) => ({ default: m.DisableForm })));

function RecoveryCodesStep({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      showToast('Recovery codes copied.', 'success');
    } catch {
      showToast('Copying failed. Select the codes and copy them, or download them.', 'error');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'data-platform-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Alert severity="success">Two-factor authentication is on.</Alert>
      <Typography variant="h3" sx={{ fontSize: '1.125rem', fontWeight: 600 }}>
        Save your recovery codes
      </Typography>
      <Typography>
        If you lose your phone, each of these codes signs you in once. They are shown only now: keep them somewhere
        safe.
      </Typography>
      <Box
        component="ol"
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        sx={{
          fontFamily: 'monospace',
          fontSize: '1.05rem',
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 1,
          m: 0,
          p: 2,
          pl: 5,
          borderRadius: 1,
          bgcolor: 'action.hover',
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => void copy()}>
          Copy codes
        </Button>
        <Button variant="outlined" onClick={download}>
          Download codes
        </Button>
        <Button variant="contained" onClick={onDone}>
          I have saved my codes
        </Button>
      </Box>
    </Box>
  );
}

/**
 * Two-factor sign-in (TOTP-ENROL-1, TOTP-DISABLE-1, TOTP-ADMIN-2): turn it on with a QR code or the
 * key and a first code, save the recovery codes shown once, or turn it off with password and code.
 */
export function TwoFactorSection() {
  const status = useQuery(twoFactorStatusQueryOptions());
  const begin = useBeginTwoFactorSetup();
  const [setup, setSetup] = useState<TwoFactorSetup>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [beginError, setBeginError] = useState<string>();
  const headingId = useId();

  const start = async () => {
    setBeginError(undefined);
    try {
      setSetup(await begin.mutateAsync());
    } catch (error) {
      setBeginError(errorText(error));
    }
  };

  let body;
  if (recoveryCodes) {
    body = <RecoveryCodesStep codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />;
  } else if (status.isPending) {
    body = <LoadingLine>Loading two-factor authentication...</LoadingLine>;
  } else if (status.isError) {
    body = (
      <LoadFailure onRetry={() => void status.refetch()} retrying={status.isFetching}>
        Error loading two-factor authentication. Please try again later.
      </LoadFailure>
    );
  } else if (status.data.enabled) {
    body = (
      <>
        <Typography>
          <strong>On.</strong> Signing in asks for a code from your authenticator app. Recovery codes left:{' '}
          {status.data.recovery_codes_left}.
        </Typography>
        <DisableForm />
      </>
    );
  } else if (setup) {
    body = (
      <SetupStep
        setup={setup}
        onDone={(codes) => {
          setSetup(undefined);
          setRecoveryCodes(codes);
        }}
        onCancel={() => setSetup(undefined)}
      />
    );
  } else {
    body = (
      <>
        {status.data.required ? (
          <Alert severity="warning">
            Administrators must turn on two-factor authentication before using the admin area.
          </Alert>
        ) : undefined}
        <Typography>
          <strong>Off.</strong> Add a second step to signing in: a 6-digit code from an authenticator app on your phone.
        </Typography>
        <FormError message={beginError} />
        <Box>
          <Button variant="contained" loading={begin.isPending} onClick={() => void start()}>
            Turn on two-factor authentication
          </Button>
        </Box>
      </>
    );
  }

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ display: 'grid', gap: 2 }}>
      <TabHeading id={headingId}>Two-factor authentication</TabHeading>
      <Suspense fallback={<LoadingLine>Loading...</LoadingLine>}>{body}</Suspense>
    </Box>
  );
}
