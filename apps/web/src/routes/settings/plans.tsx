import { requireSignedIn } from '../../app/guards.js';
import { billingConfigQueryOptions } from '../../features/settings/api/payment-methods.js';
import { plansQueryOptions } from '../../features/settings/api/plans.js';
import { subscriptionQueryOptions } from '../../features/settings/api/subscription.js';
import { PlansTab } from '../../features/settings/components/plans-tab.js';
import { useCurrentUser } from '../../lib/current-user.js';
import { prefetchForSignedIn } from '../../lib/query-client.js';

export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';

export const clientLoader = () =>
  requireSignedIn() ??
  prefetchForSignedIn((client) => [
    client.prefetchQuery(plansQueryOptions()),
    client.prefetchQuery(subscriptionQueryOptions()),
    client.prefetchQuery(billingConfigQueryOptions()),
  ]);

/** /settings/plans: the plans, each with the signed-in user's subscription when it has one. */
export default function PlansRoute() {
  return <PlansTab me={useCurrentUser().data} />;
}
