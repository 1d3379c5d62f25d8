import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, passwordRecoveryRequests } from '../../src/db/schema/index.js';
import { createTestContext, createUser, loginRequest, type TestContext, type TestUser } from '../harness.js';
import { report } from './measure.js';

/**
 * Whether an address has an account must not show in the answer nor in its timing: login, password
 * recovery and sign-up, a known and an unknown address alternating, SAMPLES of each. The answers
 * must be identical; the medians are printed with their ratio and must lie within 10 %.
 */
const SAMPLES = 200;
// Recovery answers in about 2 ms, where scheduling noise is a large share: it gets more samples.

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

describe('timing of known and unknown addresses', () => {
  let ctx: TestContext;
  let known: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    known = await createUser(ctx);
  });
  afterAll(async () => {
    // Hundreds of mails are queued by now and nobody reads them: drop them so closing (which lets
    // the worker finish its run) does not wait for each to cross SMTP.
    await ctx.database.db.delete(passwordRecoveryRequests);
    await ctx.database.db.delete(outbox);
    await ctx.close();
  });

  async function compare(
    name: string,
    samples: number,
    send: (kind: 'known' | 'unknown', index: number) => Promise<{ statusCode: number; body: string }>,
  ) {
    const times = { known: [] as number[], unknown: [] as number[] };
    const answers = { known: new Set<string>(), unknown: new Set<string>() };
    // Warm both paths first (JIT, prepared statements), then alternate.
    await send('known', -1);
    await send('unknown', -1);
    for (let index = 0; index < samples * 2; index += 1) {
      const kind = index % 2 === 0 ? 'known' : 'unknown';
      const started = performance.now();
      const response = await send(kind, index);
      times[kind].push(performance.now() - started);
      answers[kind].add(`${response.statusCode} ${response.body}`);
    }
    const knownMs = median(times.known);
    const unknownMs = median(times.unknown);
    const ratio = Math.max(knownMs, unknownMs) / Math.min(knownMs, unknownMs);
    report(`timing-${name}`, {
      samplesEach: samples,
      medianKnownMs: Number(knownMs.toFixed(2)),
      medianUnknownMs: Number(unknownMs.toFixed(2)),
      ratio: Number(ratio.toFixed(3)),
      answers: [...answers.known, ...answers.unknown],
    });
    expect([...answers.known]).toEqual([...answers.unknown]);
    expect(answers.known.size).toBe(1);
    expect(ratio).toBeLessThanOrEqual(1.1);
  }

  it('login: a wrong password and an unknown address', async () => {
    await compare('login', SAMPLES, (kind, index) =>
      loginRequest(ctx, kind === 'known' ? known.email : `nobody-${index}@example.com`, 'wrong-password-123'),
    );
  });

  it('password recovery', async () => {
    await compare('recovery', SAMPLES * 4, (kind, index) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/password-recovery/${encodeURIComponent(kind === 'known' ? known.email : `nobody-${index}@example.com`)}`,
      }),
    );
  });

  it('sign-up', async () => {
    await compare('signup', SAMPLES, (kind, index) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/users/signup',
        payload: {
          email: kind === 'known' ? known.email : `newcomer-${index}-${Date.now()}@example.com`,
          password: 'signup-password-1',
          confirm_password: 'signup-password-1',
          full_name: 'Timing Test',
        },
      }),
    );
  });
});
