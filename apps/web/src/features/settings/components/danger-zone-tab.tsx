import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.js';
import { useDeleteAccount } from '../api/delete-account.js';
import { TabHeading } from '../../../components/tab-heading.js';
import { useInBrowser } from '../../../lib/use-signed-in.js';

// The dialog (and MUI's Dialog with it) loads on the first Delete: the tab's frame holds the tab
// itself, and MUI's Dialog would add to its first load what most visits never open.
const ConfirmDialog = lazy(() =>
  import('../../../components/confirm-dialog.js').then((m) => ({ default: m.ConfirmDialog })),
);

/**
 * Danger zone (SET-DANGER-1, AUTH-FLOW-2): Delete asks in "Confirmation Required"; the account goes,
 * with storage and the query cache, and the app goes to /login. Nothing here is anyone's own, so the
 * tab's frame holds it whole (its route's `HydrateFallback`).
 */
export function DangerZoneTab() {
  const [confirming, setConfirming] = useState(false);
  // Mounted from the first Delete on, so the dialog can play its closing transition.
  const [asked, setAsked] = useState(false);
  // In the frame, before the app runs, a press would go nowhere: the button shows it cannot be used yet.
  const inBrowser = useInBrowser();
  const remove = useDeleteAccount();
  const navigate = useNavigate();

  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 640 }}>
      <TabHeading>Delete Account</TabHeading>
      <Alert severity="warning">
        Deleting your account removes your profile and saved cards, cancels your subscription and signs you out
        everywhere. This cannot be undone.
      </Alert>
      <Box>
        <Button
          variant="contained"
          color="error"
          disabled={!inBrowser}
          onClick={() => {
            setAsked(true);
            setConfirming(true);
          }}
        >
          Delete
        </Button>
      </Box>
      {asked && (
        <Suspense fallback={null}>
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
        </Suspense>
      )}
    </Box>
  );
}
