import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createPlan, queryRows, savedCard, subscribe, TEST_CARD } from '../test/billing.js';
import { createTestContext, createUser, type TestContext } from '../test/harness.js';
import { waitUntil } from '../test/wait.js';
import { systemClock } from './lib/clock.js';
import { createRenewalWorker } from './modules/billing/subscriptions/renewal.worker.js';
import type { MailTransport } from './modules/mail/mail.transport.js';
import { enqueueMail } from './modules/mail/outbox.repository.js';
import { createOutboxWorker } from './modules/mail/outbox.worker.js';
import { shutDownGracefully } from './shutdown.js';

const DAY = 86_400_000;
/** Both workers claim this many rows at a time. */
const BATCH_SIZE = 20;

/** A promise the test resolves by hand, and one that says the code under test reached it. */
function gate() {
  let open!: () => void;
  let reach!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { open, reached, pass: () => (reach(), opened) };
}

/** Whether a promise has settled, without waiting for it beyond the promises already queued. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/**
 * Starts a worker, stops it once its batch is held at `held`, and says that the stop waits for the
 * held batch: it has not settled until the gate opens.
 */
async function stopWhileHeld(
  worker: { start(): void; stop(): Promise<void> },
  held: ReturnType<typeof gate>,
): Promise<void> {
  worker.start();
  await held.reached;
  const stopped = worker.stop();
  expect(await settled(stopped)).toBe(false);
  held.open();
  await stopped;
}

/** True once nothing listens on the server's port any more. */
async function refusesConnections(base: string): Promise<boolean> {
  try {
    await fetch(`${base}/healthz`);
    return false;
  } catch {
    return true;
  }
}

describe('graceful shutdown', () => {
  it('drains with /readyz at 503 while requests are still served, then lets the request in flight finish before closing', async () => {
    const slow = gate();
    const ctx = await createTestContext({
      extend: (app) => {
        app.get('/test/slow', async () => {
          await slow.pass();
          return { finished: true };
        });
      },
    });
    try {
      const user = await createUser(ctx);
      await ctx.app.listen({ host: '127.0.0.1', port: 0 });
      const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);

      const inFlight = fetch(`${base}/test/slow`);
      await slow.reached;
      let databaseClosed = false;
      // The test's harness closes (and drops) the database itself afterwards.
      const database = { ...ctx.database, close: async () => void (databaseClosed = true) };
      const shutdown = shutDownGracefully(ctx.app, database, { drainMs: 3_000 });

      // The drain: not ready at once, everything else still served, every connection closed after use.
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ detail: 'The server is shutting down', code: 'service_unavailable' });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const me = await fetch(`${base}/api/v1/users/me`, { headers: user.headers });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe(user.email);
      expect(me.headers.get('connection')).toBe('close');

      // After the drain: no new connections, while the slow request is still being served.
      await waitUntil(() => refusesConnections(base), { timeoutMs: 20_000, what: 'connections refused' });
      expect(await settled(shutdown)).toBe(false);
      expect(databaseClosed).toBe(false);

      slow.open();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ finished: true });
      expect(answer.headers.get('connection')).toBe('close');
      await shutdown;
      expect(databaseClosed).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  describe('workers', () => {
    /** The app's own workers are stopped so that only the one under test touches the rows. */
    async function quietContext(): Promise<TestContext> {
      const ctx = await createTestContext({ env: { RENEWAL_POLL_INTERVAL_SECONDS: '0' } });
      await ctx.app.services.stopWorkers();
      return ctx;
    }

    it('the mail worker finishes the batch it is sending when stopped, and sends nothing after', async () => {
      const ctx = await quietContext();
      try {
        const subjects = Array.from({ length: BATCH_SIZE + 5 }, (_, index) => `Shutdown mail ${index}`);
        for (const subject of subjects) {
          await enqueueMail(ctx.database.db, { to: 'someone@example.com', subject, text: 'one batch at a time' });
        }
        const first = gate();
        const sent: string[] = [];
        const transport: MailTransport = {
          async send(mail) {
            if (sent.length === 0) await first.pass();
            sent.push(mail.subject);
          },
          verify: async () => undefined,
          close: () => undefined,
        };
        const worker = createOutboxWorker({
          db: ctx.database.db,
          transport,
          clock: systemClock,
          config: ctx.config.outbox,
          log: ctx.app.log,
        });
        await stopWhileHeld(worker, first);

        // The whole first batch went out and is marked sent; the rest was never claimed.
        expect([...sent].sort()).toEqual(subjects.slice(0, BATCH_SIZE).sort());
        const rows = await queryRows<{ status: string; attempts: number; count: number }>(
          ctx,
          sql`select status, attempts, count(*)::int as count from outbox group by status, attempts order by status`,
        );
        expect(rows).toEqual([
          { status: 'pending', attempts: 0, count: 5 },
          { status: 'sent', attempts: 1, count: BATCH_SIZE },
        ]);

        // Neither a wake-up, nor a direct call, nor the poll timer (several intervals) sends more.
        worker.wake();
        await worker.drain();
        await delay(5 * ctx.config.outbox.pollIntervalMs);
        expect(sent).toHaveLength(BATCH_SIZE);
      } finally {
        await ctx.close();
      }
    });

    it('the renewal worker finishes the batch it is charging when stopped, each charge with its record', async () => {
      const ctx = await quietContext();
      try {
        const admin = await createUser(ctx, { isSuperuser: true });
        const plan = await createPlan(ctx, admin, { name: 'Shutdown plan', price: '9.99' });
        const due = BATCH_SIZE + 1;
        for (let index = 0; index < due; index += 1) {
          const user = await createUser(ctx);
          const card = await savedCard(ctx, user, TEST_CARD.success);
          expect((await subscribe(ctx, user, plan.id, card.id)).statusCode).toBe(200);
        }
        ctx.clock.advance(32 * DAY);

        const sandbox = ctx.app.services.billing.sandbox!;
        const first = gate();
        let charges = 0;
        const worker = createRenewalWorker({
          db: ctx.database.db,
          clock: ctx.clock,
          log: ctx.app.log,
          hasPermission: ctx.app.services.authz.hasPermission,
          audit: ctx.app.services.audit,
          metrics: { renewalFailed: () => undefined, studioQueryExecuted: () => undefined },
          config: { ...ctx.config.billing, renewal: { ...ctx.config.billing.renewal, pollIntervalMs: 60_000 } },
          provider: {
            ...sandbox,
            async charge(request) {
              charges += 1;
              if (charges === 1) await first.pass();
              return sandbox.charge(request);
            },
          },
        });
        await stopWhileHeld(worker, first);

        // Every subscription of the batch was charged once and recorded; the last one is untouched.
        expect(charges).toBe(BATCH_SIZE);
        const [renewals] = await queryRows<{ count: number }>(
          ctx,
          sql`select count(*)::int as count from transactions where kind = 'renewal' and status = 'succeeded'`,
        );
        expect(renewals!.count).toBe(BATCH_SIZE);
        const [intents] = await queryRows<{ count: number }>(
          ctx,
          sql`select count(*)::int as count from sandbox_payment_intents where metadata->>'purpose' = 'renewal'`,
        );
        expect(intents!.count).toBe(BATCH_SIZE);
        const [left] = await queryRows<{ count: number }>(
          ctx,
          sql`select count(*)::int as count from subscriptions
              where next_attempt_at <= ${ctx.clock.now().toISOString()}::timestamptz and claim_id is null`,
        );
        expect(left!.count).toBe(1);
      } finally {
        await ctx.close();
      }
    }, 120_000);
  });
});
