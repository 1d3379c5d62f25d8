import { requireSignedIn } from '../../app/guards.js';
import { sessionsQueryOptions } from '../../features/settings/api/sessions.js';
import { twoFactorStatusQueryOptions } from '../../features/settings/api/two-factor.js';
import { prefetchForSignedIn } from '../../lib/query-client.js';

export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';

export const clientLoader = () =>
  requireSignedIn() ??
  prefetchForSignedIn((client) => [
    client.prefetchQuery(twoFactorStatusQueryOptions()),
    client.prefetchQuery(sessionsQueryOptions()),
  ]);

export { SecurityTab as default } from '../../features/settings/components/security-tab.js';
