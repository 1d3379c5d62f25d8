import { emailVerificationMessages, type UserMe } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { emailVerificationStatusQueryOptions } from '../api/email-verification.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { TabHeading } from '../../../components/tab-heading.js';

// The form (react-hook-form, zod, text fields) loads when Edit is pressed, not with the tab.
const loadProfileForm = () => import('./profile-form.js');
const ProfileForm = lazy(async () => ({ default: (await loadProfileForm()).ProfileForm }));

/** My profile: view mode with Edit; edit mode with Save and Cancel (SET-PROFILE-1). */
export function ProfileTab({ me }: { me: UserMe }) {
  const [editing, setEditing] = useState(false);
  return (
    <Box sx={{ display: 'grid', gap: 2, maxWidth: 480 }}>
      <TabHeading>User Information</TabHeading>
      {editing ? (
        <Suspense fallback={<LoadingLine>Loading...</LoadingLine>}>
          <ProfileForm me={me} onDone={() => setEditing(false)} />
        </Suspense>
      ) : (
        <>
          <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1 }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              Full name
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {me.full_name || 'N/A'}
            </Typography>
            <Typography component="dt" variant="body2" color="text.secondary">
              Email
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {me.email}
              {me.email_verified ? undefined : (
                <Typography component="span" variant="body2" color="warning.main" sx={{ ml: 1 }}>
                  (not verified)
                </Typography>
              )}
            </Typography>
          </Box>
          <PendingEmailNote />
          <Box>
            <Button
              variant="contained"
              onClick={() => setEditing(true)}
              // Fetched as the pointer or the focus nears the button, so Edit opens the form at once.
              onPointerEnter={() => void loadProfileForm()}
              onFocus={() => void loadProfileForm()}
            >
              Edit
            </Button>
          </Box>
        </>
      )}
    </Box>
  );
}

/** A new address waiting for its link (VERIFY-6): the account keeps the old one until it is followed. */
function PendingEmailNote() {
  const status = useQuery(emailVerificationStatusQueryOptions());
  const pending = status.data?.pending_email;
  if (!pending) return null;
  return <Alert severity="info">{`${emailVerificationMessages.changePending} Waiting for: ${pending}`}</Alert>;
}
