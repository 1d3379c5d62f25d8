import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { TOAST_AUTO_HIDE_MS } from '../../../lib/toast-store.js';

export interface Outcome {
  severity: 'success' | 'error';
  message: string;
}

/** The result of a send, in a snackbar that hides after 6 s (loaded when a first message is sent). */
export function ContactOutcome({ outcome, onClose }: { outcome: Outcome | undefined; onClose: () => void }) {
  return (
    <Snackbar
      open={outcome !== undefined}
      autoHideDuration={TOAST_AUTO_HIDE_MS}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {outcome ? (
        <Alert severity={outcome.severity} variant="filled" onClose={onClose}>
          {outcome.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
