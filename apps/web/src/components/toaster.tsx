import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useSyncExternalStore } from 'react';
import { dismissToast, getToasts, subscribeToasts, TOAST_AUTO_HIDE_MS } from '../lib/toast-store.js';

/**
 * Shows the newest toast; it hides after 6 s or when closed. A newer one replaces it at once (MUI's
 * consecutive-snackbars pattern): after three quick actions a person reads the third outcome now,
 * not 12 s later behind two stale ones.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  const current = toasts.at(-1);
  if (!current) return null;
  return (
    <Snackbar
      key={current.id}
      open
      autoHideDuration={TOAST_AUTO_HIDE_MS}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') dismissToast(current.id);
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={current.severity}
        variant="filled"
        onClose={() => dismissToast(current.id)}
        sx={{ width: '100%' }}
      >
        {current.message}
      </Alert>
    </Snackbar>
  );
}
