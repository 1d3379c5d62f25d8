import { DownloadTab } from '../../features/settings/components/download-tab.js';
import { useCurrentUser } from '../../lib/current-user.js';

export { requireSignedIn as clientLoader } from '../../app/guards.js';
export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';

/** /settings/download: the files the signed-in user's roles let them download. */
export default function DownloadRoute() {
  return <DownloadTab roles={useCurrentUser().data?.roles ?? []} />;
}
