import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { outbox } from '../../src/db/schema/index.js';
import { enqueueMail } from '../../src/modules/mail/outbox.repository.js';
import { createTestContext, createUser, type TestContext } from '../harness.js';
import { isRecoveryMailTo } from '../mail.js';
import { report } from './server-process.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/**
 * Longer than the old schedule's give-up (8 attempts from 5 s doubling: about 21 minutes), and than
 * a recovery link's hour.
 */
const OUTAGE_MS = 90 * MINUTE;
/** Simulated time between worker passes during the outage. */
const STEP_MS = 5 * MINUTE;
const MAILS = 10;

describe('SMTP down for hours', () => {
  let ctx: TestContext;
  // The production schedule (5 s doubling to a 15 min ceiling, 72 h in all); only the poll is slowed
  // so that this test, not the timer, decides when the worker runs on its injected clock.
  const production = loadConfig({ ENVIRONMENT: 'local', SECRET_KEY: 'x'.repeat(40) }).outbox;

  beforeAll(async () => {
    ctx = await createTestContext({ config: { outbox: { ...production, pollIntervalMs: HOUR } } });
  });
  afterAll(() => ctx.close());

  it('delivers every mail exactly once when SMTP comes back, and drops recovery links that expired meanwhile', async () => {
    ctx.smtp.state.accepting = false;
    const subjects = Array.from({ length: MAILS }, (_, index) => `Outage mail ${index} ${Date.now()}`);
    for (const subject of subjects) {
      await enqueueMail(ctx.database.db, { to: 'someone@example.com', subject, text: 'kept through the outage' });
    }
    const person = await createUser(ctx);
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${encodeURIComponent(person.email)}` }))
        .statusCode,
    ).toBe(200);

    // The outage, a few simulated minutes at a time.
    let passes = 0;
    for (let elapsed = 0; elapsed < OUTAGE_MS; elapsed += STEP_MS) {
      await ctx.app.services.outbox.drain();
      ctx.clock.advance(STEP_MS);
      passes += 1;
    }
    const during = await ctx.app.inject('/readyz?details=1');
    const rowsDuring = await ctx.database.db.select().from(outbox).where(inArray(outbox.subject, subjects));
    const rejected = ctx.smtp.state.rejected;

    // Back up: within one backoff ceiling every mail is out.
    ctx.smtp.state.accepting = true;
    let minutesToDrain = 0;
    while (ctx.smtp.received.filter((mail) => subjects.includes(mail.subject)).length < MAILS && minutesToDrain <= 15) {
      ctx.clock.advance(MINUTE);
      await ctx.app.services.outbox.drain();
      minutesToDrain += 1;
    }
    // More time and passes send nothing twice.
    for (let extra = 0; extra < 30; extra += 1) {
      ctx.clock.advance(15 * MINUTE);
      await ctx.app.services.outbox.drain();
    }

    const copies = subjects.map((subject) => ctx.smtp.received.filter((mail) => mail.subject === subject).length);
    const [recoveryRow] = await ctx.database.db.select().from(outbox).where(eq(outbox.recipient, person.email));
    const after = await ctx.app.inject('/readyz?details=1');
    report('smtp-outage', {
      simulatedOutageMinutes: OUTAGE_MS / MINUTE,
      workerPasses: passes,
      smtpRejections: rejected,
      attemptsPerMailDuringOutage: [
        Math.min(...rowsDuring.map((row) => row.attempts)),
        Math.max(...rowsDuring.map((row) => row.attempts)),
      ],
      statusesDuringOutage: [...new Set(rowsDuring.map((row) => row.status))],
      readyzDuringOutage: during.json(),
      simulatedMinutesToDeliverAll: minutesToDrain,
      delivered: copies.filter((count) => count === 1).length,
      duplicates: copies.filter((count) => count > 1).length,
      recoveryMail: recoveryRow?.status,
      recoveryMailsSent: ctx.smtp.received.filter(isRecoveryMailTo(person.email)).length,
      readyzAfter: after.json(),
    });

    expect(rowsDuring.every((row) => row.status === 'pending')).toBe(true);
    expect(during.json()).toMatchObject({ outbox: { pending: MAILS } });
    expect(copies).toEqual(subjects.map(() => 1));
    expect(minutesToDrain).toBeLessThanOrEqual(15);
    expect(recoveryRow?.status).toBe('expired');
    expect(ctx.smtp.received.filter(isRecoveryMailTo(person.email))).toHaveLength(0);
    expect(after.json()).toMatchObject({ outbox: { pending: 0 } });
  });
});
