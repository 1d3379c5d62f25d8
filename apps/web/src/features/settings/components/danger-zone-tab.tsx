import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { paths } from '../../../config/paths.js';
import { useDeleteAccount } from '../api/delete-account.js';

/**
 * Danger zone (SET-DANGER-1, AUTH-FLOW-2): Delete asks in "Confirmation Required"; the account goes,
 * with storage and the query cache, and the app goes to /login.
 */
export function DangerZoneTab() {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAccount();
  const navigate = useNavigate();

  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 640 }}>
      <Typography variant="h2" sx={{ fontSize: '1.5rem' }}>
        Delete Account
      </Typography>
      <Alert severity="warning">
        Deleting your account removes your profile and saved cards, cancels your subscription and signs you out
        everywhere. This cannot be undone.
      </Alert>
      <Box>
        <Button variant="contained" color="error" onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </Box>
      <ConfirmDialog
        open={confirming}
        title="Confirmation Required"
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => void navigate(paths.login, { replace: true }),
            onSettled: () => setConfirming(false),
          })
        }
      >
        All your account data will be permanently deleted. Are you sure you want to delete your account?
      </ConfirmDialog>
    </Box>
  );
}
