import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, createTestContext, createUser, type TestContext } from '../../../test/harness.js';
import { emailVerificationTokens, passwordResetTokens, sessions } from '../../db/schema/index.js';
import { DEAD_CREDENTIALS_RETENTION_MS, purgeDeadCredentials } from './housekeeping.js';

describe('credentials housekeeping', () => {
  let ctx: TestContext;
  const clock = createTestClock(new Date('2026-03-01T00:00:00Z'));
  beforeAll(async () => {
    ctx = await createTestContext({ clock, env: { ACCESS_TOKEN_EXPIRE_MINUTES: '60' } });
  });
  afterAll(() => ctx.close());

  async function counts() {
    const [s] = await ctx.database.db.select({ n: count() }).from(sessions);
    const [t] = await ctx.database.db.select({ n: count() }).from(passwordResetTokens);
    const [v] = await ctx.database.db.select({ n: count() }).from(emailVerificationTokens);
    return { sessions: s?.n, tokens: t?.n, verificationLinks: v?.n };
  }

  it('keeps live and recently dead credentials, deletes those dead past the retention', async () => {
    const user = await createUser(ctx);
    await ctx.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${user.email}` });
    await ctx.app.inject({ method: 'POST', url: '/api/v1/logout', headers: user.headers });
    const unverified = await createUser(ctx, { verified: false });
    const resend = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/email-verification',
      headers: unverified.headers,
    });
    expect(resend.statusCode).toBe(200);
    expect(await counts()).toEqual({ sessions: 2, tokens: 1, verificationLinks: 1 });

    await purgeDeadCredentials(ctx.database.db, clock);
    expect(await counts()).toEqual({ sessions: 2, tokens: 1, verificationLinks: 1 });

    // Past the retention every credential made above is dead (sessions last an hour, reset links 60 min, verification links 24 h).
    clock.advance(DEAD_CREDENTIALS_RETENTION_MS + 2 * 24 * 60 * 60 * 1000);
    const fresh = await createUser(ctx);
    await purgeDeadCredentials(ctx.database.db, clock);
    expect(await counts()).toEqual({ sessions: 1, tokens: 0, verificationLinks: 0 });
    const me = await ctx.app.inject({ url: '/api/v1/users/me', headers: fresh.headers });
    expect(me.statusCode).toBe(200);
  });
});
