import { createChartDrawer } from './studio/charts/chart-drawing.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { describeError } from '../lib/errors.js';
import { deriveKey } from '../lib/keys.js';
import type { ServiceMetrics } from '../lib/metrics.js';
import type { RedisConnection } from '../lib/redis.js';
import { createSecretBox } from '../lib/secret-box.js';
import { createAgentService } from './studio/agent/agent.service.js';
import { createModelClient } from './studio/agent/model-client.js';
import { createAuditService } from './audit/audit.service.js';
import { createAuthService } from './auth/auth.service.js';
import { createCredentials } from './auth/credentials.js';
import { createCredentialsHousekeeping } from './auth/housekeeping.js';
import { createMemoryLoginThrottle, createRedisLoginThrottle } from './auth/login-throttle.js';
import { createAuthzService } from './authz/authz.service.js';
import type { BillingDeps } from './billing/billing.deps.js';
import { createCustomerAccounts } from './billing/payment-methods/customers.service.js';
import type { PaymentProvider, ProviderEventPayload } from './billing/providers/payment-provider.js';
import { createPaymentMethodsService } from './billing/payment-methods/payment-methods.service.js';
import { createPlansService } from './billing/plans/plans.service.js';
import { createRenewalWorker } from './billing/subscriptions/renewal.worker.js';
import { createSandboxProvider, type SandboxProvider } from './billing/providers/sandbox.provider.js';
import { createSandboxClock } from './billing/providers/sandbox-clock.js';
import { createSubscriptionsService } from './billing/subscriptions/subscriptions.service.js';
import { createWebhooksService } from './billing/webhooks/webhooks.service.js';
import { createContactService } from './contact/contact.service.js';
import { createEmailVerificationService } from './email-verification/email-verification.service.js';
import { createFilesService } from './files/files.service.js';
import { learnFeatures } from './learn/features.js';
import { createLearnService } from './learn/learn.service.js';
import { loadLessonFiles } from './learn/lesson-files.js';
import { createLogTransport, createSmtpTransport, type MailTransport } from './mail/mail.transport.js';
import type { MailingServiceDeps } from './mail/mail.service.js';
import { createOutboxWorker } from './mail/outbox.worker.js';
import { createSessionService } from './sessions/sessions.service.js';
import { createSsoService } from './sso/sso.service.js';
import { createStudioEngine } from './studio/engine/engine.js';
import { createSourcesService } from './studio/sources.service.js';
import { createReportsService } from './studio/reports.service.js';
import { createReportSharingService } from './studio/report-sharing.service.js';
import { createReportEmbeddingService } from './studio/report-embedding.service.js';
import { createSchedulesService } from './studio/schedules/schedules.service.js';
import { readClockOffset } from './billing/providers/sandbox.repository.js';
import { createExtractLoader } from './studio/engine/extract-files.js';
import { createExtractsService } from './studio/extracts.service.js';
import { createExtractStorage } from './studio/engine/extract-storage.js';
import { createTenantPools } from './tenants/tenant-pools.js';
import { createTenantsService } from './tenants/tenants.service.js';
import { createTwoFactorService } from './two-factor/two-factor.service.js';
import { createUsersService } from './users/users.service.js';

/** How often each instance looks for due report schedules (claimed once across a fleet). */
const SCHEDULE_POLL_MS = 30_000;

export interface ServiceDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Defaults to SMTP when configured, else the log. */
  mailTransport?: MailTransport | undefined;
  /** Where shared counts live when REDIS_URL is set (decision 049); unset: process memory. */
  redis?: RedisConnection | undefined;
  /** Where workers count what /metrics reports (renewal failures). */
  metrics: ServiceMetrics;
}

/**
 * The payment provider the config chooses (Stripe with STRIPE_SECRET_KEY, else the offline sandbox)
 * and the billing services on it. The sandbox reports payments to the webhook handler, which needs
 * the provider: the two are bound once both exist.
 */
async function createBilling(
  config: Config,
  deps: Omit<BillingDeps, 'config' | 'provider'> & {
    metrics: ServiceMetrics;
    runSchedulesFor: (userId: string, now: Date) => Promise<number>;
  },
) {
  const billingConfig = config.billing;
  let handleEvent: (event: ProviderEventPayload) => Promise<unknown> = async () => undefined;
  let sandbox: SandboxProvider | undefined;
  let provider: PaymentProvider;
  if (billingConfig.stripe) {
    // Stripe's SDK loads only where Stripe bills: the sandbox of a local run never carries it.
    const { createStripeProvider } = await import('./billing/providers/stripe.provider.js');
    provider = createStripeProvider(billingConfig.stripe, billingConfig.webhookSecret, deps.clock);
  } else {
    sandbox = createSandboxProvider({
      db: deps.db,
      clock: deps.clock,
      webhookSecret: billingConfig.webhookSecret,
      emit: async (event) => {
        await handleEvent(event);
      },
    });
    provider = sandbox;
  }

  const { metrics, runSchedulesFor: _schedules, ...shared } = deps;
  const billingDeps: BillingDeps = { ...shared, config: billingConfig, provider };
  const customers = createCustomerAccounts(billingDeps);
  const webhooks = createWebhooksService(billingDeps);
  handleEvent = webhooks.handleEvent;
  const renewals = createRenewalWorker({ ...billingDeps, metrics });
  // Test clocks (decision 046): the sandbox only, and never in production.
  const sandboxClockLive = sandbox !== undefined && config.environment !== 'production';
  return {
    /** Undefined with Stripe live: the sandbox routes then answer 404. */
    sandbox,
    customers,
    plans: createPlansService(billingDeps),
    paymentMethods: createPaymentMethodsService({ ...billingDeps, customers }),
    subscriptions: createSubscriptionsService({ ...billingDeps, customers, sandboxClockLive }),
    webhooks,
    renewals,
    sandboxClock: createSandboxClock({
      db: shared.db,
      clock: shared.clock,
      audit: shared.audit,
      live: sandboxClockLive,
      runDueFor: renewals.runDueFor,
      // Report schedules (issue 59) follow their author's test clock too; built after billing.
      runSchedulesFor: (userId, now) => deps.runSchedulesFor(userId, now),
    }),
    sandboxClockLive,
  };
}

/**
 * Every service of every module, built once and wired to the others here and nowhere else: app.ts
 * hands them to the routes, tests reach them as `app.services`. `start` and `stop` run the
 * background workers (mail, renewals, credentials housekeeping) and close the tenant pools.
 */
export async function createServices(config: Config, deps: ServiceDeps) {
  const { db, clock, log } = deps;

  const transport =
    deps.mailTransport ?? (config.smtp ? createSmtpTransport(config, config.smtp) : createLogTransport(log));
  const outbox = createOutboxWorker({
    db,
    transport,
    clock,
    config: config.outbox,
    log,
    // `auth` is built below; the worker first runs once the app is ready.
    composeQueuedMail: () => auth.resolveRecoveryRequests(),
  });
  const wakeMailer = () => outbox.wake();

  const audit = createAuditService({ db, clock });
  const authz = createAuthzService({ db, clock, audit });
  // Superusers hold every permission; others those of their roles, looked up per request.
  const { hasPermission } = authz;

  // What every service that queues mail is built on.
  const mailing: MailingServiceDeps = { db, config, clock, audit, wakeMailer };

  const sessions = createSessionService(mailing);
  const credentials = createCredentials({ clock, sessions });
  const billing = await createBilling(config, {
    db,
    clock,
    log,
    hasPermission,
    audit,
    metrics: deps.metrics,
    runSchedulesFor: (userId, now) => schedules.runDueFor(userId, now),
  });
  const emailVerification = createEmailVerificationService(mailing);
  const users = createUsersService({
    ...mailing,
    sessions,
    hasPermission,
    verification: emailVerification,
    revokeCredentials: credentials.revokeAll,
    beforeDelete: billing.subscriptions.closeAccount,
  });
  // Client secrets of single sign-on connections, sealed like tenant database URLs (own key).
  const sso = createSsoService({
    db,
    config,
    clock,
    log,
    secrets: createSecretBox(deriveKey(config.secretKey, 'sso-client-secret')),
    sessions,
    audit,
  });
  const throttleRules = {
    perAccountAndIp: config.rateLimits.loginFailuresPerAccountAndIp,
    perAccount: config.rateLimits.loginFailuresPerAccount,
  };
  const twoFactorRules = {
    perAccountAndIp: config.rateLimits.twoFactorFailuresPerAccountAndIp,
    perAccount: config.rateLimits.twoFactorFailuresPerAccount,
  };
  const twoFactor = createTwoFactorService({
    ...mailing,
    sessions,
    throttle: deps.redis
      ? createRedisLoginThrottle({ ...twoFactorRules, redis: deps.redis, namespace: 'two-factor-failures:' })
      : createMemoryLoginThrottle({ ...twoFactorRules, clock }),
  });
  const auth = createAuthService({
    db,
    config,
    clock,
    sessions,
    wakeMailer,
    log,
    loginThrottle: deps.redis
      ? createRedisLoginThrottle({ ...throttleRules, redis: deps.redis })
      : createMemoryLoginThrottle({ ...throttleRules, clock }),
    replacePassword: users.replacePassword,
    twoFactor,
    recoveryClosed: sso.recoveryClosed,
  });
  const files = createFilesService({ db, config, audit, hasRole: authz.hasRole });
  const tenantSecrets = createSecretBox(deriveKey(config.secretKey, 'tenant-dburl'));
  const tenantPools = createTenantPools({
    config: config.tenantDatabases,
    openUrl: (tenantId, sealedUrl) => tenantSecrets.open(sealedUrl, tenantId),
    log,
  });
  const tenants = createTenantsService({
    db,
    clock,
    config,
    secrets: tenantSecrets,
    pools: tenantPools,
    audit,
    log,
    // Studio is built below; a tenant is deleted only once the app serves. The engine lets go of its
    // extract database and cached results first, then the files go.
    afterDelete: async (tenantId) => {
      await studioEngine
        .forgetTenant(tenantId)
        .catch((error: unknown) =>
          log.warn(
            { tenantId, err: describeError(error) },
            "a deleted tenant's cached Studio results could not be dropped",
          ),
        );
      await extracts.removeTenantFiles(tenantId);
    },
  });
  const contact = createContactService(mailing);
  const housekeeping = createCredentialsHousekeeping({ db, clock, log });
  // Studio's query engine (issue 31): DuckDB for the demo and extracts, the tenant pools for `tenant`.
  const extractLoader = createExtractLoader({ studioDir: config.studio.dir });
  // Where extract files live (STUDIO_STORAGE_URL, decision 060); its failures are logged here, once each.
  const extractStorage = createExtractStorage({
    config: config.studio,
    onFailure: (cause, what) => log.warn({ cause }, what),
  });
  const extracts = createExtractsService({
    db,
    audit,
    config: config.studio,
    loader: extractLoader,
    storage: extractStorage,
    log,
  });
  const studioEngine = createStudioEngine({
    config,
    log,
    redis: deps.redis,
    metrics: deps.metrics,
    tenantDatabases: { use: (tenantId, sealed, work) => tenants.useDatabase(tenantId, sealed, work) },
    extracts: extracts.catalog,
    storage: extractStorage,
  });
  const studioSources = createSourcesService({ engine: studioEngine });
  const reports = createReportsService({
    db,
    clock,
    audit,
    engine: studioEngine,
    charts: createChartDrawer(),
    // The agent is built next; a save asks it only once the app serves.
    ownsAgentAnswer: (actor, scope, messageId) => agent.ownsAnswerBlock(actor, scope, messageId),
  });
  const reportSharing = createReportSharingService({
    db,
    clock,
    audit,
    reports,
    frontendHost: config.frontendHost,
    tenantScope: async (tenantId) => {
      const tenant = await tenants.activeTenant(tenantId);
      return tenant ? { tenantId: tenant.id, sealedDburl: tenant.sealedDburl } : null;
    },
  });
  const reportEmbedding = createReportEmbeddingService({
    db,
    clock,
    audit,
    secrets: createSecretBox(deriveKey(config.secretKey, 'embed-secret')),
    reports,
    sharing: reportSharing,
    ownOrigin: new URL(config.frontendHost).origin,
    reportScope: async (reportId) => {
      const tenantId = await reports.tenantOf(reportId);
      const tenant = tenantId ? await tenants.activeTenant(tenantId) : null;
      return tenant ? { tenantId: tenant.id, sealedDburl: tenant.sealedDburl } : null;
    },
  });
  // Reports by mail on a schedule, and alerts (issue 59): each runs at its author's time, which the
  // sandbox test clock may have moved ahead (decision 065).
  const schedules = createSchedulesService({
    db,
    clock,
    audit,
    log,
    reports,
    tenantScope: async (tenantId) => {
      const tenant = await tenants.activeTenant(tenantId);
      return tenant ? { tenantId: tenant.id, sealedDburl: tenant.sealedDburl } : null;
    },
    roleNamesOf: authz.roleNamesOf,
    authorTime: billing.sandboxClockLive
      ? async (userId) => new Date(clock.now().getTime() + (await readClockOffset(db, userId)) * 1000)
      : async () => clock.now(),
    wakeMailer,
    frontendHost: config.frontendHost,
  });
  // The agent (issue 56): a model only when AGENT_BASE_URL names one; the guided builder always.
  const agentModel = config.agent.baseUrl
    ? createModelClient({ ...config.agent, baseUrl: config.agent.baseUrl }, log)
    : undefined;
  const agent = createAgentService({
    db,
    clock,
    audit,
    engine: studioEngine,
    reportText: async (scope, key) => {
      const report = await reports.get(scope, key);
      return { id: report.id, text: report.definition };
    },
    config: config.agent,
    model: agentModel,
    log,
  });

  // Learn (issue 60): the lesson files are read and checked here, so one that does not fit its schema
  // keeps the server from starting (the error names the file and line).
  const learn = createLearnService({
    db,
    clock,
    lessons: loadLessonFiles(),
    features: learnFeatures({ agentModel: agentModel !== undefined }),
  });

  let workersStopped: Promise<void> | undefined;
  /** Stops every background worker once, whoever asks first; later calls wait for the same stop. */
  function stopWorkers(): Promise<void> {
    workersStopped ??= (async () => {
      housekeeping.stop();
      await Promise.all([billing.renewals.stop(), outbox.stop(), schedules.stop()]);
    })();
    return workersStopped;
  }

  return {
    audit,
    authz,
    sessions,
    auth,
    twoFactor,
    users,
    emailVerification,
    files,
    tenants,
    sso,
    /** Open tenant database pools (tests look at them). */
    tenantPools,
    contact,
    billing,
    outbox,
    studioEngine,
    studioSources,
    reports,
    extracts,
    agent,
    reportSharing,
    reportEmbedding,
    schedules,
    learn,
    /** Where extract files live; /readyz?details=1 reports it. */
    extractStorage,

    /** Starts the background workers; the server calls it once it is ready to serve. */
    start(): void {
      workersStopped = undefined;
      outbox.start();
      housekeeping.start();
      billing.renewals.start();
      schedules.start(SCHEDULE_POLL_MS);
    },

    /**
     * Stops the mail and renewal workers after the batch each is working on (no mail half sent, no
     * charge without its record) and the housekeeping timer; resolves when those batches are done.
     * Shutdown calls it as the drain begins, so the batches finish while requests are still served.
     */
    stopWorkers,

    /** Stops the workers (waiting for their current batches) and closes the tenant pools. */
    async stop(): Promise<void> {
      await stopWorkers();
      extractLoader.close();
      await Promise.all([tenantPools.closeAll(), studioEngine.close()]);
      extractStorage.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
