import Alert from '@mui/material/Alert';
import type { SxProps, Theme } from '@mui/material/styles';

/** Why a form or a dialog's action failed, in red above its fields and read out as it shows; nothing without one. */
export function FormError({ message, sx }: { message: string | undefined; sx?: SxProps<Theme> }) {
  return message ? (
    <Alert severity="error" role="alert" sx={sx}>
      {message}
    </Alert>
  ) : null;
}
