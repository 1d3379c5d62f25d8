import { desc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestClock,
  createTestContext,
  createUser,
  loginRequest,
  openTestDatabase,
  type TestContext,
} from '../../../test/harness.js';
import { isRecoveryMailTo, resetTokenFrom } from '../../../test/mail.js';
import { waitUntil } from '../../../test/wait.js';
import { buildApp } from '../../app.js';
import { outbox, passwordRecoveryRequests, passwordResetTokens, users } from '../../db/schema/index.js';
import { claimDueMails, enqueueMail, releaseMailWaitingForRetry } from './outbox.repository.js';

const MAX_ATTEMPTS = 4;
const RETRY_BASE_MS = 1000;
const HOUR = 3_600_000;
const PROBE_INTERVAL_MS = 30_000;

describe('outbox', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: {
        outbox: {
          pollIntervalMs: 30,
          maxAttempts: MAX_ATTEMPTS,
          retryBaseMs: RETRY_BASE_MS,
          retryCeilingMs: 15 * 60_000,
          giveUpAfterMs: 72 * HOUR,
          probeIntervalMs: PROBE_INTERVAL_MS,
          releasePerSecond: 10,
        },
      },
    });
  });
  afterAll(() => ctx.close());

  const recover = (email: string) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${encodeURIComponent(email)}` });

  async function rowFor(recipient: string) {
    const [row] = await ctx.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, recipient))
      .orderBy(desc(outbox.id))
      .limit(1);
    return row;
  }

  /**
   * Waits until the worker has tried the newest mail to `recipient` at least `attempts` times, then
   * joins the worker's run so that attempt has settled (the test clock stands still, so no further
   * attempt starts by itself).
   */
  async function afterAttempts(recipient: string, attempts: number) {
    await waitUntil(async () => ((await rowFor(recipient))?.attempts ?? 0) >= attempts, {
      what: `${attempts} delivery attempts to ${recipient}`,
    });
    await ctx.app.services.outbox.drain();
    return (await rowFor(recipient))!;
  }

  it('writes the mail row in the transaction of its cause: a failed sign-up leaves no row and sends nothing', async () => {
    // Fails the sign-up transaction at COMMIT, after the user and its welcome mail were written.
    await ctx.database.db.execute(sql`
      CREATE FUNCTION test_refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.email LIKE 'doomed%' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`);
    await ctx.database.db.execute(sql`
      CREATE CONSTRAINT TRIGGER test_refuse_doomed AFTER INSERT ON users
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_doomed()`);

    const body = { password: 'long-enough-1', confirm_password: 'long-enough-1', full_name: 'Doomed Person' };
    const failed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/users/signup',
      payload: { ...body, email: 'doomed@example.com' },
    });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ detail: 'Internal Server Error', code: 'internal_error' });
    expect(await ctx.database.db.select().from(users).where(eq(users.email, 'doomed@example.com'))).toHaveLength(0);
    expect(await rowFor('doomed@example.com')).toBeUndefined();

    const succeeded = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/users/signup',
      payload: { ...body, email: 'spared@example.com' },
    });
    expect(succeeded.statusCode).toBe(201);
    expect(await rowFor('spared@example.com')).toBeDefined();
    await ctx.smtp.waitFor((mail) => mail.to.includes('spared@example.com'));
    // The outbox sends in order, so the doomed mail would have arrived first had it been queued.
    expect(ctx.smtp.received.flatMap((mail) => mail.to)).not.toContain('doomed@example.com');
  });

  it('keeps a recovery request whose mail fails to commit, retries it with backoff, then drops it', async () => {
    const user = await createUser(ctx);
    const bystander = await createUser(ctx);
    await ctx.database.db.execute(
      sql.raw(`
      CREATE FUNCTION test_refuse_reset_token() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.user_id = '${user.id}' THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`),
    );
    // Fails the worker's transaction at COMMIT, after the token and the mail row were written.
    await ctx.database.db.execute(sql`
      CREATE CONSTRAINT TRIGGER test_refuse_reset_token AFTER INSERT ON password_reset_tokens
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_reset_token()`);
    const requestFor = async (email: string) => {
      const [row] = await ctx.database.db
        .select()
        .from(passwordRecoveryRequests)
        .where(eq(passwordRecoveryRequests.email, email));
      return row;
    };

    // The caller is answered as always: the failure is the worker's, after the answer.
    expect((await recover(user.email)).statusCode).toBe(200);
    const failedOnce = await waitUntil(
      async () => ((await requestFor(user.email))?.attempts === 1 ? requestFor(user.email) : undefined),
      {
        what: 'the first failed attempt',
      },
    );
    expect(failedOnce?.lastError).toContain('refused by the test');
    expect(failedOnce.nextAttemptAt.getTime()).toBeGreaterThan(ctx.clock.now().getTime());
    // Rolled back whole: no mail row, no live link.
    expect(await rowFor(user.email)).toBeUndefined();
    expect(
      await ctx.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id)),
    ).toHaveLength(0);

    // A failing request holds up nobody else's mail.
    expect((await recover(bystander.email)).statusCode).toBe(200);
    await ctx.smtp.waitFor(isRecoveryMailTo(bystander.email));

    // Retried at each backoff step until the last attempt, then dropped.
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt += 1) {
      ctx.clock.advance(HOUR);
      await ctx.app.services.outbox.drain();
      const row = await requestFor(user.email);
      if (attempt < MAX_ATTEMPTS) expect(row?.attempts).toBe(attempt);
      else expect(row).toBeUndefined();
    }
    expect(await rowFor(user.email)).toBeUndefined();
    expect(ctx.smtp.received.filter(isRecoveryMailTo(user.email))).toHaveLength(0);

    // Once the fault is gone, asking again works.
    await ctx.database.db.execute(sql`DROP TRIGGER test_refuse_reset_token ON password_reset_tokens`);
    expect((await recover(user.email)).statusCode).toBe(200);
    await ctx.smtp.waitFor(isRecoveryMailTo(user.email));
  });

  it('keeps a mail while SMTP refuses it, then delivers it exactly once', async () => {
    const user = await createUser(ctx);
    ctx.smtp.state.accepting = false;
    try {
      expect((await recover(user.email)).statusCode).toBe(200);
      const first = await afterAttempts(user.email, 1);
      expect(first).toMatchObject({ status: 'pending', attempts: 1 });
      expect(first.lastError).toMatch(/451|unavailable/i);

      ctx.clock.advance(RETRY_BASE_MS);
      const second = await afterAttempts(user.email, 2);
      expect(second).toMatchObject({ status: 'pending', attempts: 2 });
      // Backing off: the next try is in the future.
      expect(second.nextAttemptAt.getTime()).toBeGreaterThan(ctx.clock.now().getTime());
      expect(ctx.smtp.received.filter(isRecoveryMailTo(user.email))).toHaveLength(0);
    } finally {
      ctx.smtp.state.accepting = true;
    }

    ctx.clock.advance(10 * RETRY_BASE_MS);
    const mail = await ctx.smtp.waitFor(isRecoveryMailTo(user.email));
    const sent = await afterAttempts(user.email, 3);
    expect(sent).toMatchObject({ status: 'sent', attempts: 3 });
    expect(sent.sentAt).not.toBeNull();

    // The delayed link works.
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/reset-password/',
      payload: { token: resetTokenFrom(ctx, mail.text), new_password: 'after-the-outage-1' },
    });
    expect(reset.statusCode).toBe(200);

    // Nothing sends it again: more time, more polls, several drains at once.
    ctx.clock.advance(24 * HOUR);
    await Promise.all([
      ctx.app.services.outbox.drain(),
      ctx.app.services.outbox.drain(),
      ctx.app.services.outbox.drain(),
    ]);
    await ctx.app.services.outbox.drain();
    expect(ctx.smtp.received.filter(isRecoveryMailTo(user.email))).toHaveLength(1);
    expect((await rowFor(user.email))?.status).toBe('sent');
  });

  it('marks a mail failed after the last attempt and stops trying', async () => {
    const user = await createUser(ctx);
    ctx.smtp.state.accepting = false;
    try {
      expect((await recover(user.email)).statusCode).toBe(200);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        const row = await afterAttempts(user.email, attempt);
        expect(row.attempts).toBe(attempt);
        expect(row.status).toBe(attempt < MAX_ATTEMPTS ? 'pending' : 'failed');
        // Each step passes the backoff but stays inside the recovery link's hour (an expired one is dropped).
        ctx.clock.advance(10 * RETRY_BASE_MS);
      }
    } finally {
      ctx.smtp.state.accepting = true;
    }
    await ctx.app.services.outbox.drain();
    ctx.clock.advance(HOUR);
    await ctx.app.services.outbox.drain();
    const row = await rowFor(user.email);
    expect(row?.status).toBe('failed');
    expect(row?.attempts).toBe(MAX_ATTEMPTS);
    expect(ctx.smtp.received.filter(isRecoveryMailTo(user.email))).toHaveLength(0);
  });

  it('lets two server instances drain one outbox without sending any mail twice', async () => {
    const second = await buildApp(ctx.config, { database: ctx.database, clock: ctx.clock });
    await second.ready();
    try {
      const recipients = Array.from({ length: 30 }, (_, i) => `batch-${i}@example.com`);
      await ctx.database.db.transaction(async (tx) => {
        for (const to of recipients) await enqueueMail(tx, { to, subject: 'Batch mail', text: `Hello ${to}` });
      });
      await Promise.all([
        ctx.app.services.outbox.drain(),
        second.services.outbox.drain(),
        ctx.app.services.outbox.drain(),
        second.services.outbox.drain(),
      ]);
      await waitUntil(
        async () => {
          const rows = await ctx.database.db.select().from(outbox).where(inArray(outbox.recipient, recipients));
          return rows.every((row) => row.status === 'sent') || undefined;
        },
        { what: 'the batch to be sent' },
      );
      for (const to of recipients) {
        expect(
          ctx.smtp.received.filter((mail) => mail.to.includes(to)),
          to,
        ).toHaveLength(1);
      }
    } finally {
      await second.close();
    }
  });
});

describe('outbox after a mail-server outage', () => {
  it('releases the mail waiting for a retry, links first, ten a second, and never a mail being sent (REL-MAIL-2)', async () => {
    const database = await openTestDatabase();
    try {
      const { db } = database;
      const now = new Date('2026-11-26T12:00:00Z');
      for (let index = 0; index < 24; index += 1) {
        await enqueueMail(db, { to: `waiting-${index}@example.com`, subject: 'Waiting', text: 'x' });
      }
      await enqueueMail(db, {
        to: 'link@example.com',
        subject: 'Recovery',
        text: 'link',
        expiresAt: new Date(now.getTime() + HOUR),
      });
      // As a long outage leaves them: tried and failed, the next attempt a quarter of an hour away.
      const later = new Date(now.getTime() + 15 * 60_000);
      await db.update(outbox).set({ attempts: 6, lastError: '421 unavailable', nextAttemptAt: later });
      // One of them is being sent by another instance right now (its lease runs).
      const [inFlight] = await db.select().from(outbox).where(eq(outbox.recipient, 'waiting-23@example.com'));
      await db
        .update(outbox)
        .set({ claimedUntil: new Date(now.getTime() + 60_000), nextAttemptAt: new Date(now.getTime() + 60_000) })
        .where(eq(outbox.id, inFlight!.id));

      expect(await releaseMailWaitingForRetry(db, now, 10)).toBe(24);

      const rows = await db.select().from(outbox).orderBy(outbox.nextAttemptAt, outbox.id);
      const released = rows.filter((row) => row.id !== inFlight!.id);
      expect(released[0]!.recipient).toBe('link@example.com');
      expect(released[0]!.nextAttemptAt.getTime()).toBe(now.getTime());
      const gaps = released
        .slice(1)
        .map((row, index) => row.nextAttemptAt.getTime() - released[index]!.nextAttemptAt.getTime());
      expect(gaps.every((gap) => gap === 100)).toBe(true);
      expect(released.at(-1)!.nextAttemptAt.getTime()).toBe(now.getTime() + 2300);
      expect(rows.find((row) => row.id === inFlight!.id)!.nextAttemptAt.getTime()).toBe(now.getTime() + 60_000);

      // At the return a worker claims only what is due: the link first, the rest as their turn comes.
      const first = await claimDueMails(db, now, new Date(now.getTime() + 60_000), 20);
      expect(first.map((row) => row.recipient)).toEqual(['link@example.com']);
      const second = await claimDueMails(db, new Date(now.getTime() + 1000), new Date(now.getTime() + 61_000), 20);
      expect(second).toHaveLength(10);
      // Released again (another instance noticed too): what is being sent keeps its lease.
      expect(await releaseMailWaitingForRetry(db, new Date(now.getTime() + 1000), 10)).toBe(13);
      const claimed = await db
        .select()
        .from(outbox)
        .where(
          inArray(
            outbox.id,
            [...first, ...second].map((row) => row.id),
          ),
        );
      expect(
        claimed.every((row) => row.claimedUntil !== null && row.nextAttemptAt.getTime() >= now.getTime() + 60_000),
      ).toBe(true);
    } finally {
      await database.drop();
    }
  });
});

describe('outbox without SMTP_HOST', () => {
  it('writes mails to the log, where a local user finds the recovery link', async () => {
    const smtpCtx = await createTestContext();
    const database = await openTestDatabase();
    const lines: string[] = [];
    const clock = createTestClock(new Date());
    const app = await buildApp(
      { ...smtpCtx.config, smtp: undefined, logLevel: 'info' },
      { database, clock, logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      await app.ready();
      const user = await createUser({ ...smtpCtx, app, database, clock });
      const response = await app.inject({ method: 'POST', url: `/api/v1/password-recovery/${user.email}` });
      expect(response.statusCode).toBe(200);

      const entry = await waitUntil(
        () =>
          lines
            .map((line) => JSON.parse(line) as { msg?: string; mail?: { to: string; subject: string } })
            .find((record) => record.mail?.to === user.email),
        { what: 'the mail in the log' },
      );
      expect(entry.mail?.subject).toContain('Password recovery');
      const token = resetTokenFrom(smtpCtx, entry.msg ?? '');
      await waitUntil(async () => {
        const [row] = await database.db.select().from(outbox).where(eq(outbox.recipient, user.email));
        return row?.status === 'sent';
      });
      expect(smtpCtx.smtp.received).toHaveLength(0);
      // Secrets in requests stay out of the log; the mail itself is there on purpose.
      expect(lines.join('\n')).not.toContain(user.password);

      const reset = await app.inject({
        method: 'POST',
        url: '/api/v1/reset-password/',
        payload: { token, new_password: 'from-the-log-1' },
      });
      expect(reset.statusCode).toBe(200);
      expect((await loginRequest({ ...smtpCtx, app }, user.email, 'from-the-log-1')).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.drop();
      await smtpCtx.close();
    }
  });
});
