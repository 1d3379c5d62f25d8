import type { PermissionName } from '@dataplatform/contract';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { AuthContext } from '../auth/sessions.service.js';
import type { BillingDeps } from './billing.deps.js';
import { createCustomerAccounts } from './customers.service.js';
import type { PaymentProvider, ProviderEventPayload } from './payment-provider.js';
import { paymentMethodsRoutes } from './payment-methods.routes.js';
import { createPaymentMethodsService } from './payment-methods.service.js';
import { plansRoutes } from './plans.routes.js';
import { createPlansService } from './plans.service.js';
import { createRenewalWorker } from './renewal.worker.js';
import { createSandboxProvider, type SandboxProvider } from './sandbox.provider.js';
import { sandboxRoutes } from './sandbox.routes.js';
import { createStripeProvider } from './stripe.provider.js';
import { subscriptionsRoutes } from './subscriptions.routes.js';
import { createSubscriptionsService } from './subscriptions.service.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { createWebhooksService } from './webhooks.service.js';

/**
 * Builds billing: the provider config chooses (Stripe with STRIPE_SECRET_KEY, else the sandbox),
 * the services, the renewal worker and the routes.
 */
export function createBilling(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
  hasPermission: (auth: AuthContext, permission: PermissionName) => Promise<boolean>;
}) {
  const { db, clock, log, hasPermission } = deps;
  const config = deps.config.billing;

  // The sandbox reports payments to the webhook handler, which needs the provider: bound once both exist.
  let handleEvent: (event: ProviderEventPayload) => Promise<unknown> = async () => undefined;
  let sandbox: SandboxProvider | undefined;
  let provider: PaymentProvider;
  if (config.stripe) {
    provider = createStripeProvider(config.stripe, config.webhookSecret, clock);
  } else {
    sandbox = createSandboxProvider({
      db,
      clock,
      webhookSecret: config.webhookSecret,
      emit: async (event) => {
        await handleEvent(event);
      },
    });
    provider = sandbox;
  }

  const billingDeps: BillingDeps = { db, clock, config, provider, log, hasPermission };
  const customers = createCustomerAccounts(billingDeps);
  const plans = createPlansService(billingDeps);
  const paymentMethods = createPaymentMethodsService({ ...billingDeps, customers });
  const subscriptions = createSubscriptionsService({ ...billingDeps, customers });
  const webhooks = createWebhooksService(billingDeps);
  handleEvent = webhooks.handleEvent;
  const renewals = createRenewalWorker(billingDeps);

  const routes: FastifyPluginAsync = async (app) => {
    await app.register(plansRoutes, { plans });
    await app.register(paymentMethodsRoutes, { paymentMethods });
    await app.register(subscriptionsRoutes, { subscriptions });
    await app.register(sandboxRoutes, { sandbox, customers });
    await app.register(webhooksRoutes, { webhooks });
  };

  return { provider, plans, paymentMethods, subscriptions, webhooks, renewals, routes };
}

export type Billing = ReturnType<typeof createBilling>;
