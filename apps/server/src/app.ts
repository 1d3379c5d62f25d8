import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { systemClock, type Clock } from './lib/clock.js';
import { deriveKey } from './lib/keys.js';
import { createSecretBox } from './lib/secret-box.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { createAuditService } from './modules/audit/audit.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createCredentialsHousekeeping } from './modules/auth/housekeeping.js';
import { createBilling } from './modules/billing/billing.module.js';
import { createSessionService } from './modules/auth/sessions.service.js';
import { authzRoutes } from './modules/authz/authz.routes.js';
import { createAuthzService } from './modules/authz/authz.service.js';
import { contactRoutes } from './modules/contact/contact.routes.js';
import { createContactService } from './modules/contact/contact.service.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { createFilesService } from './modules/files/files.service.js';
import { createLogTransport, createSmtpTransport, type MailTransport } from './modules/mail/mail.transport.js';
import { createOutboxWorker } from './modules/mail/outbox.worker.js';
import { createTenantPools } from './modules/tenants/tenant-pools.js';
import { tenantsRoutes } from './modules/tenants/tenants.routes.js';
import { createTenantsService } from './modules/tenants/tenants.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { authPlugin } from './plugins/auth.js';
import { errorHandlerPlugin, frameworkErrorHandler } from './plugins/error-handler.js';
import { healthPlugin } from './plugins/health.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { nulGuardPlugin } from './plugins/nul-guard.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
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

/** Largest JSON or form body the API accepts; bigger ones get a 413. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Builds the whole server without listening: server.ts listens, tests call `inject()`.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.password',
          '*.new_password',
          '*.token',
          '*.number',
          '*.cvc',
        ],
        censor: '[redacted]',
      },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    // A body trickled in byte by byte must not hold a connection for ever. Node reads these deadlines
    // when the server is created (setting them afterwards has no effect) and checks them every
    // `connectionsCheckingInterval`, which is kept well under them.
    requestTimeout: config.requestTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs),
    },
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    frameworkErrors: frameworkErrorHandler,
  });
  // The API speaks JSON and forms only: any other body type is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const { db } = deps.database;
  const clock = deps.clock ?? systemClock;
  const transport =
    deps.mailTransport ?? (config.smtp ? createSmtpTransport(config, config.smtp) : createLogTransport(app.log));
  const outbox = createOutboxWorker({
    db,
    transport,
    clock,
    config: config.outbox,
    log: app.log,
    // `auth` is built below; the worker first runs once the app is ready.
    composeQueuedMail: () => auth.resolveRecoveryRequests(),
  });
  const wakeMailer = () => outbox.wake();

  const audit = createAuditService({ db, clock });
  const authz = createAuthzService({ db, clock, audit });
  // Superusers hold every permission; others those of their roles, looked up per request.
  const { hasPermission } = authz;

  const sessions = createSessionService({ db, config, clock });
  const auth = createAuthService({ db, config, clock, sessions, wakeMailer, log: app.log });
  const billing = createBilling({ db, clock, config, log: app.log, hasPermission });
  const users = createUsersService({
    db,
    config,
    clock,
    sessions,
    wakeMailer,
    hasPermission,
    audit,
    beforeDelete: billing.subscriptions.closeAccount,
  });
  const files = createFilesService({ db, config, audit, hasRole: authz.hasRole });
  const tenantSecrets = createSecretBox(deriveKey(config.secretKey, 'tenant-dburl'));
  const tenantPools = createTenantPools({
    config: config.tenantDatabases,
    openUrl: (tenantId, sealedUrl) => tenantSecrets.open(sealedUrl, tenantId),
    log: app.log,
  });
  const tenants = createTenantsService({
    db,
    clock,
    config,
    secrets: tenantSecrets,
    pools: tenantPools,
    audit,
    log: app.log,
  });
  const contact = createContactService({ db, config, clock, wakeMailer, audit });

  const housekeeping = createCredentialsHousekeeping({ db, clock, log: app.log });

  app.decorate('outbox', outbox);
  app.decorate('tenantPools', tenantPools);
  app.decorate('renewals', billing.renewals);
  app.addHook('onReady', async () => {
    outbox.start();
    housekeeping.start();
    billing.renewals.start();
  });
  app.addHook('onClose', async () => {
    housekeeping.stop();
    await billing.renewals.stop();
    await outbox.stop();
    await tenantPools.closeAll();
  });

  await app.register(errorHandlerPlugin);
  await app.register(securityHeadersPlugin, {
    servedOverHttps: config.frontendHost.startsWith('https://'),
    inlineScriptHashes: readInlineScriptHashes(config.webDistDir),
  });
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  await app.register(jsonBodyPlugin);
  await app.register(nulGuardPlugin);
  await app.register(rateLimitPlugin);
  await app.register(swaggerPlugin);
  await app.register(healthPlugin, { database: deps.database, outboxBacklog: () => outbox.backlog() });

  await app.register(
    async (api) => {
      // JSON answers over 1 KiB (lists, mostly) go out compressed; static files have their own
      // precompressed copies, and downloads opt out (Range needs the bytes as stored).
      await api.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
      await api.register(authPlugin, { sessions, hasPermission });
      await api.register(tenantContextPlugin, { resolveTenant: tenants.resolveContext });
      await api.register(authRoutes, { auth, config });
      await api.register(usersRoutes, { users, config });
      await api.register(authzRoutes, { authz });
      await api.register(auditRoutes, { audit });
      await api.register(filesRoutes, { files });
      await api.register(tenantsRoutes, { tenants });
      await api.register(contactRoutes, { contact, config });
      await api.register(billing.routes);
    },
    { prefix: API_PREFIX },
  );

  await app.register(staticPlugin, { root: config.webDistDir });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    outbox: ReturnType<typeof createOutboxWorker>;
    /** Open tenant database pools (tests and health checks look at them). */
    tenantPools: ReturnType<typeof createTenantPools>;
    renewals: ReturnType<typeof createBilling>['renewals'];
  }
}
