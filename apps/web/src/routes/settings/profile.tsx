import { requireSignedIn } from '../../app/guards.js';
import Alert from '@mui/material/Alert';
import { LoadingLine } from '../../components/loading-line.js';
import { ProfileTab } from '../../features/settings/components/profile-tab.js';
import { emailVerificationStatusQueryOptions } from '../../features/settings/api/email-verification.js';
import { useCurrentUser } from '../../lib/current-user.js';
import { prefetchForSignedIn } from '../../lib/query-client.js';

export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';

// The account itself is on its way already: the area's frame asks for it.
export const clientLoader = () =>
  requireSignedIn() ?? prefetchForSignedIn((client) => [client.prefetchQuery(emailVerificationStatusQueryOptions())]);

/** /settings/profile: the signed-in user's profile, once it has loaded. */
export default function ProfileRoute() {
  const me = useCurrentUser();
  if (me.isPending) return <LoadingLine>Loading your profile...</LoadingLine>;
  if (!me.data) return <Alert severity="error">Error loading your profile. Please try again later.</Alert>;
  return <ProfileTab me={me.data} />;
}
