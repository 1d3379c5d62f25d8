import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { censorSecrets } from './lib/log-redaction.js';
import { BODY_LIMITS } from './lib/body-limits.js';
import { systemClock, type Clock } from './lib/clock.js';
import { COMPRESSION } from './lib/compression.js';
import { createMetrics } from './lib/metrics.js';
import { connectRedis } from './lib/redis.js';
import { responseSerializerCompiler } from './lib/response-serializer.js';
import { agentRoutes } from './modules/studio/agent/agent.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { authzRoutes } from './modules/authz/authz.routes.js';
import { paymentMethodsRoutes } from './modules/billing/payment-methods/payment-methods.routes.js';
import { plansRoutes } from './modules/billing/plans/plans.routes.js';
import { sandboxRoutes } from './modules/billing/providers/sandbox.routes.js';
import { subscriptionsRoutes } from './modules/billing/subscriptions/subscriptions.routes.js';
import { webhooksRoutes } from './modules/billing/webhooks/webhooks.routes.js';
import { contactRoutes } from './modules/contact/contact.routes.js';
import { emailVerificationRoutes } from './modules/email-verification/email-verification.routes.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { createServices, type Services } from './modules/index.js';
import type { MailTransport } from './modules/mail/mail.transport.js';
import { sessionsRoutes } from './modules/sessions/sessions.routes.js';
import { ssoRoutes } from './modules/sso/sso.routes.js';
import { studioSourcesRoutes } from './modules/studio/sources.routes.js';
import { reportsRoutes } from './modules/studio/reports.routes.js';
import { reportSharingRoutes } from './modules/studio/report-sharing.routes.js';
import { sharedPageHeaders } from './modules/studio/shared-pages.js';
import { schedulesRoutes } from './modules/studio/schedules/schedules.routes.js';
import { extractsRoutes } from './modules/studio/extracts.routes.js';
import { learnRoutes } from './modules/learn/learn.routes.js';
import { tenantsRoutes } from './modules/tenants/tenants.routes.js';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { authPlugin } from './plugins/auth.js';
import { bodyDeadlinePlugin } from './plugins/body-deadline.js';
import { drainingPlugin } from './plugins/draining.js';
import { clientErrorHandler, errorHandlerPlugin, frameworkErrorHandler } from './plugins/error-handler.js';
import { healthPlugin } from './plugins/health.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { metricsPlugin } from './plugins/metrics.js';
import { nulGuardPlugin } from './plugins/nul-guard.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { logCompletedRequest, REQUEST_ID_HEADER, requestIdGenerator, requestLogPlugin } from './plugins/request-log.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { readInlineScriptHashes, staticPlugin } from './plugins/static.js';
import { tenantContextPlugin } from './plugins/tenant-context.js';
import { API_PREFIX, swaggerPlugin } from './plugins/swagger.js';

export interface AppDeps {
  database: DatabaseHandle;
  clock?: Clock;
  /** Defaults to SMTP when configured, else the log. */
  mailTransport?: MailTransport;
  /** Where log lines go (JSON, one per line); defaults to stdout. */
  logStream?: { write(line: string): void };
}

/**
 * Every schema is a zod schema: requests are checked by the zod type provider's validator, answers
 * by our serializer (lib/response-serializer.ts). Naming the compilers when the instance is made keeps Fastify from loading its default ones (Ajv and fast-json-stringify) only to
 * have them replaced: a quarter of buildApp's time at start, and their memory. Fastify's types
 * describe Ajv's factories; at run time a factory returns whatever compiler it likes.
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => responseSerializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/**
 * Builds the whole server without listening: server.ts listens, tests call `inject()`.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const metrics = createMetrics({ enabled: config.metricsToken !== undefined });
  const serverRequestTimeoutMs = Math.max(config.requestTimeoutMs, config.studio.extractUploadTimeoutMs);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Secret-named fields are censored at any depth (lib/log-redaction.ts). A formatter rather than
      // pino's `redact`: its wildcard paths ran over every child logger's bindings, twice per request.
      formatters: { log: censorSecrets, bindings: censorSecrets },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    // One line per request, written by the request-log plugin, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    // Routes that take more declare their own (lib/body-limits.ts); bigger bodies get a 413.
    bodyLimit: BODY_LIMITS.default,
    // Headers trickled in byte by byte must not hold a connection for ever, nor a body: Node's
    // deadline for the whole request is one per server, so it is the longest route's (an extract
    // upload) and the body-deadline plugin holds every other body to REQUEST_TIMEOUT_SECONDS. Node
    // reads these when the server is created (setting them afterwards has no effect) and checks them
    // every `connectionsCheckingInterval`, which is kept well under them.
    requestTimeout: serverRequestTimeoutMs,
    http: {
      requestTimeout: serverRequestTimeoutMs,
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs),
    },
    // Closing (src/shutdown.ts) stops accepting connections, closes the idle ones and waits for the
    // requests in flight; a request that reaches the server while it closes is still served (with
    // `Connection: close`) rather than answered 503, which nginx would not retry for a POST.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    genReqId: requestIdGenerator(config.trustProxy),
    schemaController: { compilersFactory: zodCompilers },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // What Node's parser refuses (headers too large, a malformed request line, a request that did not
    // arrive in time) gets the product's `{ detail, code }` too.
    clientErrorHandler,
    // The router's own errors (a malformed URL) run no hook: they get the request id, their log line
    // and their count here.
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      frameworkErrorHandler(error, request, reply);
      logCompletedRequest(request, reply);
      metrics.observeRequest(request, reply);
    },
  });
  // The API speaks JSON and forms only: any other body type is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');

  // One Redis client for the process when REDIS_URL is set: rate limits, the login throttle and
  // /readyz use it (decision 049). It connects once the app is ready and reconnects by itself.
  const redis = config.redis ? await connectRedis(config.redis, app.log) : undefined;
  const services = await createServices(config, {
    db: deps.database.db,
    clock: deps.clock ?? systemClock,
    log: app.log,
    mailTransport: deps.mailTransport,
    redis,
    metrics,
  });
  app.decorate('services', services);
  app.addHook('onReady', async () => {
    await redis?.connect();
    services.start();
  });
  app.addHook('onClose', async () => {
    await services.stop();
    await redis?.close();
  });

  await app.register(requestLogPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(drainingPlugin);
  await app.register(bodyDeadlinePlugin, { defaultMs: config.requestTimeoutMs });
  await app.register(securityHeadersPlugin, {
    servedOverHttps: config.frontendHost.startsWith('https://'),
    inlineScriptHashes: readInlineScriptHashes(config.webDistDir),
    allowStripe: config.billing.provider === 'stripe',
  });
  await app.register(formbody, { bodyLimit: BODY_LIMITS.default });
  await app.register(jsonBodyPlugin);
  await app.register(nulGuardPlugin);
  await app.register(rateLimitPlugin, { redis });
  await app.register(swaggerPlugin);
  await app.register(healthPlugin, {
    database: deps.database,
    redis,
    outboxBacklog: services.outbox.backlog,
    studioStorage: services.extractStorage.status,
  });
  await app.register(metricsPlugin, {
    metrics,
    token: config.metricsToken,
    database: deps.database,
    outboxBacklog: services.outbox.backlog,
    tenantPools: services.tenantPools.stats,
  });

  await app.register(
    async (api) => {
      // JSON answers over 1 KiB (lists, mostly) go out compressed; static files have their own
      // precompressed copies, and downloads opt out (Range needs the bytes as stored). A share
      // link's answers are compressed once and kept briefly (public-answers.ts), which compress skips.
      await api.register(compress, { global: true, ...COMPRESSION });
      await api.register(authPlugin, {
        authenticate: services.sessions.authenticate,
        hasPermission: services.authz.hasPermission,
        twoFactorEnrollmentRequired: services.twoFactor.enrollmentRequired,
      });
      await api.register(tenantContextPlugin, { resolveTenant: services.tenants.resolveContext });
      await api.register(authRoutes, { auth: services.auth, config });
      await api.register(twoFactorRoutes, { twoFactor: services.twoFactor, config });
      await api.register(usersRoutes, { users: services.users, config });
      await api.register(emailVerificationRoutes, { verification: services.emailVerification, config });
      await api.register(sessionsRoutes, { sessions: services.sessions });
      await api.register(authzRoutes, { authz: services.authz });
      await api.register(auditRoutes, { audit: services.audit });
      await api.register(filesRoutes, { files: services.files });
      await api.register(tenantsRoutes, { tenants: services.tenants });
      await api.register(ssoRoutes, { sso: services.sso, config });
      await api.register(contactRoutes, { contact: services.contact, config });
      await api.register(reportsRoutes, {
        reports: services.reports,
        hasPermission: services.authz.hasPermission,
        extractMaxBytes: config.studio.extractMaxBytes,
      });
      const { billing } = services;
      await api.register(plansRoutes, { plans: billing.plans });
      await api.register(paymentMethodsRoutes, { paymentMethods: billing.paymentMethods });
      await api.register(subscriptionsRoutes, { subscriptions: billing.subscriptions });
      await api.register(sandboxRoutes, {
        sandbox: billing.sandbox,
        customers: billing.customers,
        sandboxClock: billing.sandboxClock,
      });
      await api.register(webhooksRoutes, { webhooks: billing.webhooks });
      await api.register(studioSourcesRoutes, { sources: services.studioSources });
      await api.register(reportSharingRoutes, {
        sharing: services.reportSharing,
        embedding: services.reportEmbedding,
        limits: {
          linksPerAccount: config.rateLimits.shareLinksPerAccount,
          linkRequests: config.rateLimits.shareLinkRequests,
        },
      });
      await api.register(schedulesRoutes, { schedules: services.schedules });
      await api.register(agentRoutes, {
        agent: services.agent,
        hasPermission: services.authz.hasPermission,
        limit: config.rateLimits.agentPerAccount,
      });
      await api.register(extractsRoutes, {
        extracts: services.extracts,
        uploadTimeoutMs: config.studio.extractUploadTimeoutMs,
      });
      await api.register(learnRoutes, { learn: services.learn, checkLimit: config.rateLimits.learnChecksPerAccount });
    },
    { prefix: API_PREFIX },
  );

  await app.register(staticPlugin, {
    root: config.webDistDir,
    pageHeaders: sharedPageHeaders(services.reportEmbedding),
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every service, as createServices built them (set once, before any route). */
    services: Services;
  }
}
