import { paths } from '../../config/paths.js';
import { getQueryClient } from '../../lib/query-client.js';
import { billingConfigQueryOptions } from './api/payment-methods.js';
import { plansQueryOptions } from './api/plans.js';
import { subscriptionQueryOptions } from './api/subscription.js';

/**
 * Starts what a settings tab shows first, from the area's clientLoader, while the tab's code
 * downloads. Only the plans tab asks: its largest paint is the plans' cards, which waited for the
 * tab's chunk and then for the answer; the other tabs paint their prerendered frame first.
 */
export function prefetchSettingsTab(pathname: string): void {
  if (pathname.replace(/\/+$/, '') !== paths.settings.plans) return;
  const client = getQueryClient();
  void client.prefetchQuery(plansQueryOptions());
  void client.prefetchQuery(subscriptionQueryOptions());
  void client.prefetchQuery(billingConfigQueryOptions());
}
