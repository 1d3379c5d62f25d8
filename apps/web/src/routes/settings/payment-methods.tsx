import { requireSignedIn } from '../../app/guards.js';
import { billingConfigQueryOptions, paymentMethodsQueryOptions } from '../../features/settings/api/payment-methods.js';
import { prefetchForSignedIn } from '../../lib/query-client.js';

export { TabLoading as HydrateFallback } from '../../components/routed-tabs.js';

export const clientLoader = () =>
  requireSignedIn() ??
  prefetchForSignedIn((client) => [
    client.prefetchQuery(paymentMethodsQueryOptions()),
    client.prefetchQuery(billingConfigQueryOptions()),
  ]);

export { PaymentMethodsTab as default } from '../../features/settings/components/payment-methods-tab.js';
