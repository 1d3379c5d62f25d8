import { randomUUID } from 'node:crypto';
import type { TenantPublic } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlan, savedCard, subscribe, TEST_CARD } from '../../test/billing.js';
import {
  createTestContext,
  createUser,
  generousRateLimits,
  type TestContext,
  type TestUser,
} from '../../test/harness.js';
import { METRICS_TOKEN, scrape } from '../../test/metrics.js';
import { closedPort, startTenantDatabases, type TenantDatabase } from '../../test/tenant-databases.js';
import { enqueueMail } from '../modules/mail/outbox.repository.js';

const DAY = 24 * 3_600_000;

describe('GET /metrics without METRICS_TOKEN', () => {
  let ctx: TestContext;
  let admin: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await createUser(ctx, { isSuperuser: true });
  });
  afterAll(() => ctx.close());

  it('answers 404 like any unknown path, whatever credentials come with it', async () => {
    const unknown = await ctx.app.inject({ method: 'GET', url: '/no-such-thing' });
    expect(unknown.statusCode).toBe(404);
    for (const headers of [{}, admin.headers, { authorization: `Bearer ${METRICS_TOKEN}` }]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(unknown.json());
      expect(response.body).not.toContain('http_requests_total');
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let tenantDatabase: TenantDatabase;

  beforeAll(async () => {
    ctx = await createTestContext({
      env: {
        METRICS_TOKEN,
        // Mail never leaves: every send fails and is retried an hour later, so queued mail stays queued.
        SMTP_PORT: String(await closedPort()),
        RENEWAL_POLL_INTERVAL_SECONDS: '0',
        ACCESS_TOKEN_EXPIRE_MINUTES: String(365 * 24 * 60),
      },
      config: {
        rateLimits: { ...generousRateLimits, resetPerIp: { max: 1, windowMs: 60_000 } },
        outbox: {
          pollIntervalMs: 3_600_000,
          retryBaseMs: 3_600_000,
          retryCeilingMs: 3_600_000,
          giveUpAfterMs: 365 * DAY,
          probeIntervalMs: 3_600_000,
          releasePerSecond: 10,
        },
      },
    });
    admin = await createUser(ctx, { isSuperuser: true });
    [tenantDatabase] = (await startTenantDatabases(1)) as [TenantDatabase];
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await tenantDatabase?.close();
  });

  describe('access', () => {
    it.each([
      ['no Authorization header', {}],
      ['a wrong token', { authorization: 'Bearer not-the-metrics-token-at-all' }],
      ['the token with another scheme', { authorization: `Basic ${METRICS_TOKEN}` }],
      ['the token with a character more', { authorization: `Bearer ${METRICS_TOKEN}x` }],
    ])('answers 401 to %s', async (_, headers) => {
      const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toEqual({ detail: 'Not authenticated', code: 'not_authenticated' });
    });

    it("answers 401 to a superuser's session token: sessions open the API, not the metrics", async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: admin.headers });
      expect(response.statusCode).toBe(401);
    });

    it('answers 200 with the right token, in the Prometheus text format, never cached', async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const result = await scrape(ctx.app);
      expect(result.families.length).toBeGreaterThan(20);
    });
  });

  it('reports event-loop lag, heap and the other standard Node.js process metrics', async () => {
    const result = await scrape(ctx.app);
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_heap_size_total_bytes',
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
    ]) {
      expect(result.family(name), name).toBeDefined();
    }
    expect(result.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('counts requests by route template and status class, exactly as many as were made', async () => {
    const byId = { method: 'GET', route: '/api/v1/users/:user_id', status_class: '4xx' };
    const me = { method: 'GET', route: '/api/v1/users/me', status_class: '2xx' };
    const unmatched = { method: 'GET', route: 'unmatched', status_class: '4xx' };
    const before = await scrape(ctx.app);

    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/v1/users/${id}`, headers: admin.headers });
      expect(response.statusCode).toBe(404);
    }
    for (let call = 0; call < 2; call += 1) {
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: admin.headers })).statusCode,
      ).toBe(200);
    }
    expect((await ctx.app.inject({ method: 'GET', url: `/nothing-here/${randomUUID()}` })).statusCode).toBe(404);

    const after = await scrape(ctx.app);
    const grew = (labels: Record<string, string>) =>
      (after.value('http_requests_total', labels) ?? 0) - (before.value('http_requests_total', labels) ?? 0);
    expect(grew(byId)).toBe(3);
    expect(grew(me)).toBe(2);
    expect(grew(unmatched)).toBe(1);
    const observed = (labels: Record<string, string>) =>
      after.histogramCount('http_request_duration_seconds', labels) -
      before.histogramCount('http_request_duration_seconds', labels);
    expect(observed(byId)).toBe(3);
    expect(observed(me)).toBe(2);

    // The raw URLs never become labels: one series per route, whatever the ids.
    const routes = after.family('http_requests_total')!.metrics.map((sample) => sample.labels?.route ?? '');
    for (const id of ids) expect(routes.some((route) => route.includes(id))).toBe(false);
    expect(after.family('http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it('counts rate-limit rejections by route', async () => {
    const labels = { route: '/api/v1/reset-password/' };
    const before = (await scrape(ctx.app)).value('dp_rate_limit_rejections_total', labels) ?? 0;
    const reset = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/reset-password/',
        payload: { token: 'not-a-real-token', new_password: 'some-new-password-1' },
        remoteAddress: '10.9.0.1',
      });
    expect((await reset()).statusCode).toBe(400);
    expect((await reset()).statusCode).toBe(429);
    expect((await reset()).statusCode).toBe(429);
    expect((await scrape(ctx.app)).value('dp_rate_limit_rejections_total', labels)).toBe(before + 2);
  });

  it('reports the outbox backlog and the age of its oldest mail', async () => {
    const before = await scrape(ctx.app);
    const backlogBefore = before.value('dp_outbox_backlog')!;
    expect(backlogBefore).toBeGreaterThanOrEqual(0);
    for (let index = 0; index < 3; index += 1) {
      await enqueueMail(ctx.database.db, { to: `queued-${index}@example.com`, subject: 'Queued', text: 'Queued' });
    }
    expect((await scrape(ctx.app)).value('dp_outbox_backlog')).toBe(backlogBefore + 3);

    // The rows' created_at comes from the database's clock: move the app's clock 10 minutes past it.
    ctx.clock.advance(Date.now() - ctx.clock.now().getTime() + 10 * 60_000);
    const later = await scrape(ctx.app);
    expect(later.value('dp_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(600);
    expect(later.value('dp_outbox_failed')).toBe(0);
  });

  it('counts renewals whose payment failed', async () => {
    const labels = { reason: 'payment_failed' };
    const before = (await scrape(ctx.app)).value('dp_renewal_failures_total', labels) ?? 0;
    const plan = await createPlan(ctx, admin, { name: `Metrics ${randomUUID()}`, price: '5.00' });
    const user = await createUser(ctx);
    const card = await savedCard(ctx, user, TEST_CARD.success);
    const subscribed = await subscribe(ctx, user, plan.id, card.id);
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    await savedCard(ctx, user, TEST_CARD.chargeFails, true);

    ctx.clock.advance(32 * DAY);
    await ctx.app.services.billing.renewals.runOnce();
    expect((await scrape(ctx.app)).value('dp_renewal_failures_total', labels)).toBe(before + 1);
  });

  it('reports tenant pools open, and the connections of the pools', async () => {
    expect((await scrape(ctx.app)).value('dp_tenant_pools_open')).toBe(0);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/tenants/',
      headers: admin.headers,
      payload: { name: `Metrics tenant ${randomUUID()}`, dburl: tenantDatabase.url },
    });
    expect(created.statusCode, created.body).toBe(201);
    const tenant = created.json<TenantPublic>();

    const tables = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/tenants/current/tables',
      headers: { ...admin.headers, 'x-tenant-id': tenant.id },
    });
    expect(tables.statusCode, tables.body).toBe(200);
    const result = await scrape(ctx.app);
    expect(result.value('dp_tenant_pools_open')).toBe(1);
    expect(result.value('dp_db_pool_connections_idle', { pool: 'tenants' })).toBeGreaterThanOrEqual(1);
    expect(result.value('dp_db_pool_connections_in_use', { pool: 'tenants' })).toBe(0);
    expect(result.value('dp_db_pool_waiting', { pool: 'tenants' })).toBe(0);

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/tenants/${tenant.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect((await scrape(ctx.app)).value('dp_tenant_pools_open')).toBe(0);
  });

  it("reports the platform database's pool on PostgreSQL; PGlite has none, so no series", async () => {
    const result = await scrape(ctx.app);
    const control = { pool: 'control' };
    if (ctx.database.driver === 'pglite') {
      expect(result.value('dp_db_pool_connections_in_use', control)).toBeUndefined();
      expect(result.value('dp_db_pool_waiting', control)).toBeUndefined();
    } else {
      expect(result.value('dp_db_pool_connections_in_use', control)).toBeGreaterThanOrEqual(0);
      expect(result.value('dp_db_pool_connections_idle', control)).toBeGreaterThanOrEqual(0);
      expect(result.value('dp_db_pool_waiting', control)).toBe(0);
    }
  });
});
