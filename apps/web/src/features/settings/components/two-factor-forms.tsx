// First: Zod's settings must be in place before any schema is built.
import '@dataplatform/contract/zod-config';
// The two-factor forms (react-hook-form, zod), loaded when one is shown (decision 030).
import {
  ErrorCode,
  TwoFactorConfirmSchema,
  TwoFactorDisableSchema,
  type TwoFactorConfirm,
  type TwoFactorDisable,
  type TwoFactorSetup,
} from '@dataplatform/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { fieldProps, passwordFieldProps } from '../../../components/form-field.js';
import { CurrentPasswordField } from '../../../components/password-field.js';
import { ApiError, errorText, failureText } from '../../../lib/api-error.js';
import { showToast } from '../../../lib/toast-store.js';
import { useConfirmTwoFactor, useDisableTwoFactor } from '../api/two-factor.js';
import { FormError } from '../../../components/form-error.js';

const CODE_INPUT = { inputMode: 'numeric', maxLength: 7 } as const;

/** The code of the authenticator app: its label, the one-time-code autofill and a numeric keyboard. */
function CodeField(props: ReturnType<typeof fieldProps>) {
  return (
    <TextField
      {...props}
      label="Authentication code"
      autoComplete="one-time-code"
      required
      fullWidth
      slotProps={{ htmlInput: CODE_INPUT }}
    />
  );
}

/** The secret in groups of four, as authenticator apps show and accept it. */
function groupedKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The otpauth:// address as a QR code, drawn in the browser; the library loads only here. */
function QrCode({ value }: { value: string }) {
  const [dataUrl, setDataUrl] = useState<string>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qrcode) => qrcode.toDataURL(value, { margin: 2, width: 200, errorCorrectionLevel: 'M' }))
      .then((url) => {
        if (live) setDataUrl(url);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [value]);
  if (failed) return <Alert severity="warning">The QR code could not be drawn. Enter the key below instead.</Alert>;
  if (!dataUrl) {
    return (
      <Box role="status" sx={{ width: 200, height: 200, display: 'grid', placeItems: 'center' }}>
        <CircularProgress size={24} aria-label="Drawing the QR code" />
      </Box>
    );
  }
  return (
    <Box
      component="img"
      src={dataUrl}
      alt="QR code to scan with your authenticator app"
      width={200}
      height={200}
      sx={{ display: 'block', bgcolor: '#fff', borderRadius: 1 }}
    />
  );
}

/** A code the server refused lands on its field; anything else is the form's error line. */
function useServerError<T extends Record<string, unknown>>(
  setFieldError: (field: keyof T & string, message: string) => void,
  fieldOf: Partial<Record<ErrorCode, keyof T & string>>,
) {
  const [formError, setFormError] = useState<string>();
  const handle = (error: unknown) => {
    const code = error instanceof ApiError ? error.code : undefined;
    const field = code === undefined ? undefined : fieldOf[code];
    if (field) setFieldError(field, failureText((error as ApiError).body));
    else setFormError(errorText(error));
  };
  return { formError, setFormError, handle };
}

export function SetupStep({
  setup,
  onDone,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onDone: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useConfirmTwoFactor();
  const keyId = useId();
  const form = useForm<TwoFactorConfirm>({
    mode: 'onSubmit',
    resolver: zodResolver(TwoFactorConfirmSchema),
    defaultValues: { code: '' },
  });
  const { formError, setFormError, handle } = useServerError<TwoFactorConfirm>(
    (field, message) => form.setError(field, { type: 'server', message }, { shouldFocus: true }),
    { [ErrorCode.invalid_two_factor_code]: 'code' },
  );
  const onSubmit = form.handleSubmit(async (body) => {
    setFormError(undefined);
    try {
      const { recovery_codes } = await confirm.mutateAsync(body);
      onDone(recovery_codes);
    } catch (error) {
      handle(error);
    }
  });

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="h3" sx={{ fontSize: '1.125rem', fontWeight: 600 }}>
        1. Scan this QR code with your authenticator app
      </Typography>
      <QrCode value={setup.otpauth_url} />
      <Typography id={keyId}>Can&apos;t scan it? Enter this key in the app instead:</Typography>
      <Box
        component="code"
        aria-labelledby={keyId}
        data-testid="two-factor-key"
        sx={{
          fontFamily: 'monospace',
          fontSize: '1.05rem',
          overflowWrap: 'anywhere',
          p: 1.5,
          borderRadius: 1,
          bgcolor: 'action.hover',
        }}
      >
        {groupedKey(setup.secret)}
      </Box>
      <Typography variant="h3" sx={{ fontSize: '1.125rem', fontWeight: 600, mt: 1 }}>
        2. Enter the 6-digit code the app shows
      </Typography>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'grid', gap: 2, maxWidth: 320 }}>
        <FormError message={formError} />
        <CodeField {...fieldProps(form, 'code')} />
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" loading={form.formState.isSubmitting}>
            Turn on
          </Button>
          <Button onClick={onCancel} disabled={form.formState.isSubmitting}>
            Cancel
          </Button>
        </Box>
      </Box>
    </Box>
  );
}

export function DisableForm() {
  const disable = useDisableTwoFactor();
  const form = useForm<TwoFactorDisable>({
    mode: 'onSubmit',
    resolver: zodResolver(TwoFactorDisableSchema),
    defaultValues: { password: '', code: '' },
  });
  const { formError, setFormError, handle } = useServerError<TwoFactorDisable>(
    (field, message) => form.setError(field, { type: 'server', message }, { shouldFocus: true }),
    { [ErrorCode.incorrect_password]: 'password', [ErrorCode.invalid_two_factor_code]: 'code' },
  );
  const onSubmit = form.handleSubmit(async (body) => {
    setFormError(undefined);
    try {
      await disable.mutateAsync(body);
      form.reset();
      showToast('Two-factor authentication is off.', 'success');
    } catch (error) {
      handle(error);
    }
  });
  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'grid', gap: 2, maxWidth: 400 }}>
      <Typography variant="h3" sx={{ fontSize: '1.125rem', fontWeight: 600 }}>
        Turn off two-factor authentication
      </Typography>
      <Typography>Enter your password and a current code from your authenticator app.</Typography>
      <FormError message={formError} />
      <CurrentPasswordField {...passwordFieldProps(form, 'password')} />
      <CodeField {...fieldProps(form, 'code')} />
      <Box>
        <Button type="submit" variant="outlined" color="error" loading={form.formState.isSubmitting}>
          Turn off
        </Button>
      </Box>
    </Box>
  );
}
