import Alert from '@mui/material/Alert';
import { LoadingLine } from '../../components/loading-line.js';
import { ProfileTab } from '../../features/settings/components/profile-tab.js';
import { useCurrentUser } from '../../lib/current-user.js';

/** /settings/profile: the signed-in user's profile, once it has loaded. */
export default function ProfileRoute() {
  const me = useCurrentUser();
  if (me.isPending) return <LoadingLine>Loading your profile...</LoadingLine>;
  if (!me.data) return <Alert severity="error">Error loading your profile. Please try again later.</Alert>;
  return <ProfileTab me={me.data} />;
}
