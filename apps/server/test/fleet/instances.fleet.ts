import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExitFigures, RestartFigures } from '../../scripts/fleet/launcher.js';
import { isRecoveryMailTo } from '../mail.js';
import { waitUntil } from '../wait.js';
import {
  call,
  DRAIN_MS,
  login,
  report,
  requestOnce,
  startTestFleet,
  SUPERUSER,
  SUPERUSER_PASSWORD,
  type TestFleet,
} from './fleet-harness.js';

/** Both workers poll: mail every 2 s (fixed), renewals every second (RENEWAL_POLL_INTERVAL_SECONDS). */
const QUIET_WINDOW_MS = 2_500;

/** How many lines of each instance's log match. */
function countLines(t: TestFleet, pattern: RegExp): Record<string, number> {
  return Object.fromEntries(
    t.fleet.instances.map((instance) => [instance.name, instance.lines.filter((line) => pattern.test(line)).length]),
  );
}

describe('two instances behind nginx', () => {
  let t: TestFleet;
  let admin: { authorization: string };
  const base = () => t.fleet.url;

  beforeAll(async () => {
    const started = Date.now();
    t = await startTestFleet({ smtpAcceptDelayMs: 20 });
    admin = await login(base(), SUPERUSER, SUPERUSER_PASSWORD);
    report('started', {
      instances: t.fleet.instances.map((instance) => instance.url),
      nginx: t.fleet.url,
      redis: t.redisUrl ?? null,
      startMs: Date.now() - started,
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A user made by the superuser through nginx. */
  async function newUser(label: string) {
    const email = `${label}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const password = `password-${label}-ok`;
    const created = await call(base(), 'POST', '/api/v1/users/', admin, { email, password, full_name: label });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { email, password };
  }

  it('serves hashed assets from disk with the headers the instances give them, and the rest from the instances', async () => {
    const { assetPath, assetBody } = t.web;
    const [viaNginx, direct] = await Promise.all([
      fetch(`${base()}${assetPath}`, { headers: { 'accept-encoding': 'gzip' } }),
      fetch(`${t.fleet.instances[0]!.url}${assetPath}`, { headers: { 'accept-encoding': 'gzip' } }),
    ]);
    expect(viaNginx.status).toBe(200);
    expect(await viaNginx.text()).toBe(assetBody);
    expect(viaNginx.headers.get('content-encoding')).toBe('gzip');
    for (const header of ['cache-control', 'x-content-type-options', 'cross-origin-resource-policy']) {
      expect(viaNginx.headers.get(header), header).toBe(direct.headers.get(header));
    }
    expect(viaNginx.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Not on disk: the instances answer, as without nginx.
    const missing = await fetch(`${base()}/assets/missing-0000.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
    // Pages come from the instances, with their CSP.
    const page = await fetch(`${base()}/login`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it("shares one request id between nginx's log, the instance's log and the answer", async () => {
    const response = await fetch(`${base()}/api/v1/users/me`, { headers: admin });
    expect(response.status).toBe(200);
    // nginx made it (no id came from the client), the instance kept it and answered with it, once.
    const id = response.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await waitUntil(() => readFileSync(path.join(t.dir, 'access.log'), 'utf8').includes(`rid=${id} `), {
      what: 'the access log line',
    });
    // The instance writes its line as the answer goes out; it reaches the test through a pipe.
    await waitUntil(
      () =>
        t.fleet.instances.some((instance) =>
          instance.lines.some((line) => line.includes(`"reqId":"${id}"`) && line.includes('"msg":"request completed"')),
        ),
      { what: "the instance's request line" },
    );
  });

  it('a session revoked through one instance is refused by the other at once', async () => {
    const [a, b] = t.fleet.instances as [(typeof t.fleet.instances)[0], (typeof t.fleet.instances)[0]];
    const rounds = 5;
    const refusedAfterMs: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const user = await newUser(`revoke${round}`);
      const session = await login(a.url, user.email, user.password);
      expect((await call(b.url, 'GET', '/api/v1/users/me', session)).status).toBe(200);
      expect((await call(a.url, 'POST', '/api/v1/logout', session)).status).toBe(204);
      const revokedAt = Date.now();
      const after = await call<{ detail: string }>(b.url, 'GET', '/api/v1/users/me', session);
      refusedAfterMs.push(Date.now() - revokedAt);
      expect(after.status).toBe(401);
      expect(after.body.detail).toBe('Could not validate credentials');
      // And through nginx, whichever instance answers.
      expect((await call(base(), 'GET', '/api/v1/users/me', session)).status).toBe(401);
    }
    report('session-revocation', { rounds, refusedByTheOther: rounds, refusedAfterMs });
  });

  it('the renewal worker charges each due subscription exactly once with both instances running', async () => {
    const plan = await call<{ id: string }>(base(), 'POST', '/api/v1/subscriptions/plans', admin, {
      name: 'Fleet plan',
      description: 'Renewed by two instances',
      price: '12.34',
      billing_period: 'monthly',
      features: ['One charge per period'],
      is_active: true,
    });
    expect(plan.status).toBe(201);
    const subscribers = 12;
    for (let index = 0; index < subscribers; index += 1) {
      const user = await newUser(`renew${index}`);
      const session = await login(base(), user.email, user.password);
      const card = await call<{ id: string }>(
        base(),
        'POST',
        '/api/v1/subscriptions/sandbox/payment-methods',
        session,
        {
          number: '4242424242424242',
          exp_month: 12,
          exp_year: new Date().getUTCFullYear() + 3,
          cvc: '123',
        },
      );
      expect(card.status).toBe(201);
      const saved = await call<{ id: string }>(base(), 'POST', '/api/v1/subscriptions/payment-methods', session, {
        provider_payment_method_id: card.body.id,
        is_default: true,
      });
      expect(saved.status).toBe(201);
      const subscribed = await call(base(), 'POST', `/api/v1/subscriptions/subscribe/${plan.body.id}`, session, {
        payment_method_id: saved.body.id,
        plan_id: plan.body.id,
      });
      expect(subscribed.status).toBe(200);
    }
    // The periods end one after another over ~2 s, so both instances' workers (1 s polls) find some.
    await t.sql.query(
      `WITH due AS (SELECT id, now() + row_number() OVER (ORDER BY id) * interval '150 milliseconds' AS at
                    FROM subscriptions WHERE plan_id = $1)
       UPDATE subscriptions s
       SET current_period_end = due.at, current_period_start = due.at - interval '1 month', next_attempt_at = due.at
       FROM due WHERE s.id = due.id`,
      [plan.body.id],
    );
    const renewedCount = async () =>
      (
        await t.sql.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM transactions WHERE plan_id = $1 AND kind = 'renewal'`,
          [plan.body.id],
        )
      ).rows[0]!.count;
    const started = Date.now();
    await waitUntil(async () => (await renewedCount()) >= subscribers, { timeoutMs: 30_000, what: 'renewals' });
    const allRenewedMs = Date.now() - started;
    // Both workers keep polling: anything charged twice would show within a few more passes.
    await delay(QUIET_WINDOW_MS);

    const perSubscription = await t.sql.query<{ renewals: number; intents: number; moved: boolean }>(
      `SELECT (SELECT count(*)::int FROM transactions t WHERE t.subscription_id = s.id AND t.kind = 'renewal') AS renewals,
              (SELECT count(*)::int FROM sandbox_payment_intents i
                WHERE i.metadata->>'subscription_id' = s.id::text AND i.metadata->>'purpose' = 'renewal') AS intents,
              s.current_period_end > now() + interval '20 days' AS moved
       FROM subscriptions s WHERE s.plan_id = $1`,
      [plan.body.id],
    );
    const byInstance = countLines(t, /"msg":"renewal recorded"/);
    report('renewals', {
      subscriptions: perSubscription.rows.length,
      renewals: perSubscription.rows.reduce((sum, row) => sum + row.renewals, 0),
      providerCharges: perSubscription.rows.reduce((sum, row) => sum + row.intents, 0),
      chargedTwice: perSubscription.rows.filter((row) => row.renewals > 1 || row.intents > 1).length,
      recordedByInstance: byInstance,
      allRenewedMs,
    });
    expect(perSubscription.rows).toHaveLength(subscribers);
    expect(perSubscription.rows.every((row) => row.renewals === 1 && row.intents === 1 && row.moved)).toBe(true);
    expect(Object.values(byInstance).reduce((sum, count) => sum + count, 0)).toBe(subscribers);
  });

  it('a mail is sent exactly once with both outbox workers running', async () => {
    const mails = 60;
    await t.sql.query(
      `INSERT INTO outbox (recipient, subject, text_body)
       SELECT 'fleet@example.com', 'Fleet mail ' || n, 'Sent once by one of two instances' FROM generate_series(1, $1::int) n`,
      [mails],
    );
    // And one the product itself queues, through nginx.
    const recovery = await call(base(), 'POST', `/api/v1/password-recovery/${encodeURIComponent(SUPERUSER)}`, {});
    expect(recovery.status).toBe(200);

    const started = Date.now();
    const fleetMails = () => t.smtp.received.filter((mail) => mail.subject.startsWith('Fleet mail '));
    await waitUntil(() => fleetMails().length >= mails, { timeoutMs: 30_000, what: 'the fleet mails' });
    await t.smtp.waitFor(isRecoveryMailTo(SUPERUSER), 30_000);
    const allSentMs = Date.now() - started;
    await delay(QUIET_WINDOW_MS);

    const copies = new Map<string, number>();
    for (const mail of fleetMails()) copies.set(mail.subject, (copies.get(mail.subject) ?? 0) + 1);
    // Every row the outbox holds (welcome mails of the users made above included): sent, first try.
    const rows = await t.sql.query<{ status: string; attempts: number; count: number }>(
      `SELECT status, attempts, count(*)::int AS count FROM outbox GROUP BY status, attempts`,
    );
    const sentByInstance = countLines(t, /"msg":"mail sent"/);
    const recoveryMails = t.smtp.received.filter(isRecoveryMailTo(SUPERUSER)).length;
    report('mail', {
      queued: mails + 1,
      received: fleetMails().length + recoveryMails,
      distinct: copies.size + (recoveryMails > 0 ? 1 : 0),
      sentTwice: [...copies.values()].filter((count) => count > 1).length + (recoveryMails > 1 ? 1 : 0),
      sentByInstance,
      outbox: rows.rows,
      allSentMs,
    });
    expect(copies.size).toBe(mails);
    expect([...copies.values()].every((count) => count === 1)).toBe(true);
    expect(recoveryMails).toBe(1);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect(rows.rows[0]!.count).toBeGreaterThanOrEqual(mails + 1);
  });

  it('counts the login throttle and the contact limit across both instances (Redis)', async () => {
    // Without REDIS_URL each instance would count on its own and allow twice the budget.
    expect(t.redisUrl).toBeDefined();
    const [a, b] = t.fleet.instances as [(typeof t.fleet.instances)[0], (typeof t.fleet.instances)[0]];
    // Straight to the instances, each request naming the client as nginx would (TRUST_PROXY=true):
    // a client of its own, so the other cases' logins from 127.0.0.1 do not count here.
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const user = await newUser('throttle');
    const loginAt = (instance: typeof a, password: string) =>
      fetch(`${instance.url}/api/v1/login/access-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...from('198.51.100.7') },
        body: new URLSearchParams({ username: user.email, password }).toString(),
      });
    const failures: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      failures.push((await loginAt(attempt % 2 === 0 ? a : b, 'not-the-password')).status);
    }
    expect(failures).toEqual(Array.from({ length: 10 }, () => 400));
    const throttled = [(await loginAt(a, user.password)).status, (await loginAt(b, user.password)).status];
    expect(throttled).toEqual([429, 429]);

    const contacts: number[] = [];
    for (let message = 0; message < 6; message += 1) {
      const response = await fetch(`${(message % 2 === 0 ? a : b).url}/api/v1/contact/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from('198.51.100.8') },
        body: JSON.stringify({
          name: 'Fleet Tester',
          email: 'tester@example.com',
          subject: 'Counted across instances',
          message: `Message ${message}, one budget for both instances.`,
        }),
      });
      contacts.push(response.status);
    }
    expect(contacts).toEqual([201, 201, 201, 201, 201, 429]);
    report('shared-limits', { failedLogins: failures, thenLogins: throttled, contactMessages: contacts });
  });

  it('an extract uploaded through one instance is run, exported and deleted through the other, each on its own data folder', async () => {
    const [a, b] = t.fleet.instances as [(typeof t.fleet.instances)[0], (typeof t.fleet.instances)[0]];
    const tenant = await call<{ id: string }>(base(), 'POST', '/api/v1/tenants/', admin, { name: 'fleet-extracts' });
    expect(tenant.status, JSON.stringify(tenant.body)).toBe(201);
    const inTenant = { ...admin, 'x-tenant-id': tenant.body.id };
    const rows = ['region,units'];
    for (let i = 0; i < 10_000; i += 1) rows.push(`${['north', 'south'][i % 2]},${i % 5}`);
    const started = Date.now();
    const uploaded = await fetch(`${a.url}/api/v1/studio/extracts?name=sales`, {
      method: 'POST',
      headers: { ...inTenant, 'content-type': 'text/csv' },
      body: `${rows.join('\n')}\n`,
    });
    const uploadMs = Date.now() - started;
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const extract = (await uploaded.json()) as { id: string };

    const listed = await call<{ count: number }>(b.url, 'GET', '/api/v1/studio/extracts', inTenant);
    expect(listed.body.count).toBe(1);
    const definition = (sql: string) =>
      `title: Fleet\nsource: extract\nblocks:\n  - id: b\n    table: { sql: "${sql}" }\n`;
    const firstRun = Date.now();
    const run = await call<{ rows: unknown[][] }>(b.url, 'POST', '/api/v1/studio/preview', inTenant, {
      definition: definition('SELECT region, sum(units) AS units FROM sales GROUP BY region ORDER BY region'),
      block: 'b',
    });
    const coldMs = Date.now() - firstRun;
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.rows).toEqual([
      ['north', 10_000],
      ['south', 10_000],
    ]);
    const report_ = await call<{ id: string }>(b.url, 'POST', '/api/v1/studio/reports', inTenant, {
      definition: definition('SELECT region, units FROM sales'),
    });
    expect(report_.status, JSON.stringify(report_.body)).toBe(201);
    const exported = await fetch(`${b.url}/api/v1/studio/reports/${report_.body.id}/export`, {
      method: 'POST',
      headers: { ...inTenant, 'content-type': 'application/json' },
      body: JSON.stringify({ block: 'b' }),
    });
    expect(exported.status).toBe(200);
    expect((await exported.text()).split('\r\n').filter((line) => line !== '')).toHaveLength(10_001);
    const ready = await call<{ studio_storage: { kind: string; status: string } }>(
      b.url,
      'GET',
      '/readyz?details=1',
      {},
    );
    expect(ready.body.studio_storage).toMatchObject({ kind: 's3', status: 'ok' });

    const deleted = await call(b.url, 'DELETE', `/api/v1/studio/extracts/${extract.id}`, inTenant);
    expect(deleted.status).toBe(204);
    const after = await call<{ count: number }>(a.url, 'GET', '/api/v1/studio/extracts', inTenant);
    expect(after.body.count).toBe(0);
    const gone = await call<{ code: string }>(a.url, 'POST', '/api/v1/studio/preview', inTenant, {
      definition: definition('SELECT count(*) FROM sales'),
      block: 'b',
    });
    expect(gone.body.code).toBe('query_refused');
    report('extracts-across-instances', { uploadMs, coldRunOnOtherMs: coldMs });
  });

  it('restarts one instance at a time under load with no failed request and no lost write', async () => {
    const concurrency = 6;
    const outcomes: { kind: 'read' | 'write'; name?: string; status: number; error?: string; ms: number }[] = [];
    let loading = true;

    async function worker(index: number): Promise<void> {
      for (let n = 0; loading; n += 1) {
        const write = n % 2 === 0;
        const name = `roll-${index}-${n}`;
        const startedAt = Date.now();
        try {
          const response = write
            ? await requestOnce(`${base()}/api/v1/authorization/roles`, {
                method: 'POST',
                headers: { ...admin, 'content-type': 'application/json' },
                body: JSON.stringify({ name, description: 'written during a rolling restart' }),
              })
            : await requestOnce(`${base()}/api/v1/users/me`, { headers: admin });
          outcomes.push({ kind: write ? 'write' : 'read', name, status: response.status, ms: Date.now() - startedAt });
        } catch (error) {
          outcomes.push({
            kind: write ? 'write' : 'read',
            name,
            status: 0,
            error: String(error),
            ms: Date.now() - startedAt,
          });
        }
      }
    }

    const startedAt = Date.now();
    const load = Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index)));
    const restarts: RestartFigures[] = [];
    try {
      await delay(1_500);
      for (let index = 0; index < t.fleet.instances.length; index += 1) {
        restarts.push(await t.fleet.restart(index));
      }
      await delay(1_500);
    } finally {
      loading = false;
      await load;
    }
    const loadMs = Date.now() - startedAt;

    const stored = await t.sql.query<{ name: string; copies: number }>(
      `SELECT name, count(*)::int AS copies FROM roles WHERE name LIKE 'roll-%' GROUP BY name`,
    );
    const copies = new Map(stored.rows.map((row) => [row.name, row.copies]));
    const acknowledged = outcomes.filter((o) => o.kind === 'write' && o.status === 201);
    const lost = acknowledged.filter((o) => !copies.has(o.name!));
    const failed = outcomes.filter((o) => (o.kind === 'write' ? o.status !== 201 : o.status !== 200));
    const statuses: Record<string, number> = {};
    for (const o of outcomes) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    // Which instance nginx sent the load to, from its access log.
    const upstreams: Record<string, number> = {};
    for (const line of readFileSync(path.join(t.dir, 'access.log'), 'utf8').split('\n')) {
      const match = /"(?:POST \/api\/v1\/authorization\/roles|GET \/api\/v1\/users\/me) .* upstream=(\S+)/.exec(line);
      if (match) upstreams[match[1]!] = (upstreams[match[1]!] ?? 0) + 1;
    }
    const latencies = outcomes.map((o) => o.ms).sort((x, y) => x - y);
    report('rolling-restart', {
      concurrency,
      loadMs,
      requests: outcomes.length,
      reads: outcomes.filter((o) => o.kind === 'read').length,
      writes: outcomes.filter((o) => o.kind === 'write').length,
      acknowledgedWrites: acknowledged.length,
      storedWrites: copies.size,
      lostWrites: lost.length,
      duplicateWrites: [...copies.values()].filter((count) => count > 1).length,
      failed: failed.length,
      statuses,
      failures: failed.slice(0, 5),
      restarts,
      byUpstream: upstreams,
      nginxReloads: t.fleet.nginx.reloads,
      p50Ms: latencies[Math.floor(latencies.length / 2)],
      p99Ms: latencies[Math.floor(latencies.length * 0.99)],
      maxMs: latencies.at(-1),
    });

    expect(failed).toEqual([]);
    expect(lost).toEqual([]);
    expect([...copies.values()].every((count) => count === 1)).toBe(true);
    expect(copies.size).toBe(acknowledged.length);
    for (const restart of restarts) {
      expect(restart.exitCode).toBe(0);
      // nginx stopped sending it requests well before it stopped accepting them.
      expect(restart.outOfRotationMs).toBeLessThan(DRAIN_MS);
    }
    expect(t.fleet.inRotation()).toEqual({ 'app-1': true, 'app-2': true });
  });

  it('stops: every instance drains and exits 0', async () => {
    const exits: ExitFigures[] = await t.fleet.stop();
    report('stop', { exits });
    expect(exits.map((exit) => exit.code)).toEqual([0, 0]);
    for (const instance of t.fleet.instances) {
      expect(instance.lines.some((line) => line.includes('"msg":"shut down"'))).toBe(true);
    }
  });
});
