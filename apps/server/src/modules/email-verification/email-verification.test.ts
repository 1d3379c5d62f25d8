import { AUDIT_ACTIONS, emailVerificationMessages, userMessages } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlan, savedCard, subscribe, TEST_CARD } from '../../../test/billing.js';
import {
  bearer,
  createTestClock,
  createTestContext,
  createUser,
  generousRateLimits,
  login,
  loginRequest,
  useTestContext,
  type TestContext,
  type TestUser,
} from '../../../test/harness.js';
import { mailAfter, verificationTokenFrom } from '../../../test/mail.js';
import type { ReceivedMail } from '../../../test/smtp.js';
import { userAuditActions } from '../../../test/user-requests.js';
import { emailVerificationTokens } from '../../db/schema/index.js';
import { API_PREFIX as API } from '../../plugins/swagger.js';
import { findUserById } from '../users/users.service.js';

const mailTo = (email: string, subject: string) => (mail: ReceivedMail) =>
  mail.to.includes(email) && mail.subject.includes(subject);

function follow(ctx: TestContext, token: string) {
  return ctx.app.inject({ method: 'POST', url: `${API}/verify-email/`, payload: { token } });
}

function resend(ctx: TestContext, user: { headers: Record<string, string> }) {
  return ctx.app.inject({ method: 'POST', url: `${API}/users/me/email-verification`, headers: user.headers });
}

async function status(ctx: TestContext, user: { headers: Record<string, string> }) {
  const response = await ctx.app.inject({ url: `${API}/users/me/email-verification`, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ email_verified: boolean; pending_email: string | null }>();
}

async function me(ctx: TestContext, token: string) {
  const response = await ctx.app.inject({ url: `${API}/users/me`, headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ id: string; email: string; email_verified: boolean }>();
}

const codeOf = (response: { json<T>(): T }) => response.json<{ code: string }>().code;

let counter = 0;
/** Signs up through the API and logs in; answers the session and the welcome mail's verification token. */
async function signUp(ctx: TestContext) {
  counter += 1;
  const email = `verify-${counter}-${Date.now()}@example.com`;
  const password = `verification-password-${counter}`;
  const welcome = await mailAfter(ctx, mailTo(email, 'Welcome'), async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/signup`,
      payload: { email, password, confirm_password: password, full_name: 'Vera Fication' },
    });
    expect(response.statusCode, response.body).toBe(201);
  });
  const token = await login(ctx, email, password);
  const { id } = (await ctx.app.inject({ url: `${API}/users/me`, headers: bearer(token) })).json<{ id: string }>();
  const user: TestUser = { id, email, password, token, headers: bearer(token) };
  return { user, welcome, verificationToken: verificationTokenFrom(ctx, welcome.text) };
}

describe('e-mail verification (decision 029)', () => {
  const { ctx, admin } = useTestContext({ clock: createTestClock(new Date('2026-04-01T08:00:00Z')) });

  it('signs up unverified: settings work, subscribing and downloading answer 403 email_not_verified (VERIFY-1, VERIFY-4)', async () => {
    const { user, welcome } = await signUp(ctx);
    expect(welcome.text).toContain(`${ctx.config.frontendHost}/verify-email?token=`);
    expect(welcome.html).toContain('Verify e-mail address');
    expect(await me(ctx, user.token)).toMatchObject({ email: user.email, email_verified: false });
    expect(await status(ctx, user)).toEqual({ email_verified: false, pending_email: null });

    // Settings still answer: a card can be saved, the profile edited.
    const card = await savedCard(ctx, user, TEST_CARD.success, true);
    const rename = await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/users/me`,
      headers: user.headers,
      payload: { full_name: 'Vera Renamed' },
    });
    expect(rename.statusCode).toBe(200);

    const plan = await createPlan(ctx, admin, { name: `Verified only ${counter}` });
    const refused = await subscribe(ctx, user, plan.id, card.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: emailVerificationMessages.notVerified, code: 'email_not_verified' });
    const download = await ctx.app.inject({ url: `${API}/files/download/report.csv`, headers: user.headers });
    expect(download.statusCode).toBe(403);
    expect(codeOf(download)).toBe('email_not_verified');
  });

  it('verifies through the mailed link once; the link then is dead, and subscribing works (VERIFY-2)', async () => {
    const { user, verificationToken } = await signUp(ctx);
    const stored = await ctx.database.db
      .select({ tokenHash: emailVerificationTokens.tokenHash })
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.email, user.email));
    // Only a digest is kept: the database does not hold a working link.
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(verificationToken);

    const followed = await follow(ctx, verificationToken);
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.json()).toEqual({ message: emailVerificationMessages.verified, email: user.email, changed: false });
    expect(await me(ctx, user.token)).toMatchObject({ email_verified: true });
    expect(await userAuditActions(ctx, user.id)).toContain(AUDIT_ACTIONS.emailVerify);

    const again = await follow(ctx, verificationToken);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      detail: emailVerificationMessages.invalidToken,
      code: 'invalid_verification_token',
    });

    const plan = await createPlan(ctx, admin, { name: `After verifying ${counter}` });
    const card = await savedCard(ctx, user, TEST_CARD.success, true);
    expect((await subscribe(ctx, user, plan.id, card.id)).statusCode).toBe(200);
  });

  it('refuses an expired link, a made-up one, and an older link once a newer one was sent (VERIFY-2)', async () => {
    const { user, verificationToken: first } = await signUp(ctx);
    const mail = await mailAfter(ctx, mailTo(user.email, 'Verify your e-mail address'), async () => {
      const response = await resend(ctx, user);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ message: emailVerificationMessages.sent });
    });
    const second = verificationTokenFrom(ctx, mail.text);
    expect(codeOf(await follow(ctx, first))).toBe('invalid_verification_token');
    expect(codeOf(await follow(ctx, 'made-up-token'))).toBe('invalid_verification_token');

    ctx.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const expired = await follow(ctx, second);
    expect(expired.statusCode).toBe(400);
    expect(codeOf(expired)).toBe('invalid_verification_token');
    expect(await me(ctx, user.token)).toMatchObject({ email_verified: false });
  });

  it('does not let a link verify another account, or an address the account no longer has (VERIFY-2)', async () => {
    const first = await signUp(ctx);
    const second = await signUp(ctx);
    // A link names its own account: following the first person's link leaves the second unverified.
    expect((await follow(ctx, first.verificationToken)).statusCode).toBe(200);
    expect(await me(ctx, second.user.token)).toMatchObject({ email_verified: false });

    // An admin moves the second account to another address: its old link proves nothing any more.
    const moved = `moved-${counter}@example.com`;
    const update = await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/users/${second.user.id}`,
      headers: admin.headers,
      payload: { email: moved },
    });
    expect(update.statusCode, update.body).toBe(200);
    expect(codeOf(await follow(ctx, second.verificationToken))).toBe('invalid_verification_token');
  });

  it('answers 400 email_already_verified to a verified account asking for a link', async () => {
    const user = await createUser(ctx);
    const response = await resend(ctx, user);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: emailVerificationMessages.alreadyVerified,
      code: 'email_already_verified',
    });
  });

  it('counts accounts a superuser creates as verified (VERIFY-5)', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/`,
      headers: admin.headers,
      payload: { email: `made-by-admin-${counter}@example.com`, password: 'made-by-admin-password' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ email_verified: true });
    // The first superuser: seed.test.ts.
  });

  it('moves to a new address only once it is verified, and tells the old one (VERIFY-6)', async () => {
    const user = await createUser(ctx);
    const newEmail = `new-address-${counter}-${Date.now()}@example.com`;
    const confirmMail = await mailAfter(ctx, mailTo(newEmail, 'Confirm your new e-mail address'), async () => {
      const response = await ctx.app.inject({
        method: 'PATCH',
        url: `${API}/users/me`,
        headers: user.headers,
        payload: { email: newEmail },
      });
      expect(response.statusCode, response.body).toBe(200);
      // Nothing changed yet: the answer keeps the current address.
      expect(response.json()).toMatchObject({ email: user.email, email_verified: true });
    });
    expect(confirmMail.text).toContain(user.email);
    expect(await status(ctx, user)).toEqual({ email_verified: true, pending_email: newEmail });
    expect((await loginRequest(ctx, newEmail, user.password)).statusCode).toBe(400);

    const told = await mailAfter(ctx, mailTo(user.email, 'Your e-mail address was changed'), async () => {
      const followed = await follow(ctx, verificationTokenFrom(ctx, confirmMail.text));
      expect(followed.statusCode, followed.body).toBe(200);
      expect(followed.json()).toEqual({ message: emailVerificationMessages.changed, email: newEmail, changed: true });
    });
    expect(told.text).toContain(newEmail);
    expect(await me(ctx, user.token)).toMatchObject({ email: newEmail, email_verified: true });
    expect(await status(ctx, user)).toEqual({ email_verified: true, pending_email: null });
    expect((await loginRequest(ctx, newEmail, user.password)).statusCode).toBe(200);
    expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(400);
    expect(await userAuditActions(ctx, user.id)).toContain(AUDIT_ACTIONS.emailChange);
  });

  it('resends the pending change to the new address, not the verified old one', async () => {
    const user = await createUser(ctx);
    const newEmail = `pending-${counter}-${Date.now()}@example.com`;
    await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/users/me`,
      headers: user.headers,
      payload: { email: newEmail },
    });
    const mail = await mailAfter(ctx, mailTo(newEmail, 'Confirm your new e-mail address'), async () => {
      expect((await resend(ctx, user)).statusCode).toBe(200);
    });
    expect(verificationTokenFrom(ctx, mail.text)).toBeTruthy();
  });

  it('refuses a new address another account has, at the request and when the link is followed', async () => {
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const taken = await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/users/me`,
      headers: user.headers,
      payload: { email: other.email },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ detail: userMessages.emailTaken, code: 'email_taken' });

    const wanted = `wanted-${counter}-${Date.now()}@example.com`;
    const mail = await mailAfter(ctx, mailTo(wanted, 'Confirm your new e-mail address'), async () => {
      await ctx.app.inject({
        method: 'PATCH',
        url: `${API}/users/me`,
        headers: user.headers,
        payload: { email: wanted },
      });
    });
    // Someone signs up with the address before the link is followed.
    await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/`,
      headers: admin.headers,
      payload: { email: wanted, password: 'someone-else-password' },
    });
    const followed = await follow(ctx, verificationTokenFrom(ctx, mail.text));
    expect(followed.statusCode).toBe(409);
    expect(codeOf(followed)).toBe('email_taken');
    expect((await findUserById(ctx.database.db, user.id))?.email).toBe(user.email);
  });

  it('tells the old address when an admin changes it, and the new one counts as verified', async () => {
    const user = await createUser(ctx, { verified: false });
    const newEmail = `admin-moved-${counter}-${Date.now()}@example.com`;
    const told = await mailAfter(ctx, mailTo(user.email, 'Your e-mail address was changed'), async () => {
      const response = await ctx.app.inject({
        method: 'PATCH',
        url: `${API}/users/${user.id}`,
        headers: admin.headers,
        payload: { email: newEmail },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ email: newEmail, email_verified: true });
    });
    expect(told.text).toContain(newEmail);
  });

  it('does not verify a deactivated account', async () => {
    const { user, verificationToken } = await signUp(ctx);
    await ctx.app.inject({
      method: 'PATCH',
      url: `${API}/users/${user.id}`,
      headers: admin.headers,
      payload: { is_active: false },
    });
    expect(codeOf(await follow(ctx, verificationToken))).toBe('invalid_verification_token');
  });
});

describe('e-mail verification limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      config: { rateLimits: { ...generousRateLimits, verificationMailPerAccount: { max: 2, windowMs: 60_000 } } },
    });
  });
  afterAll(() => ctx.close());

  it('limits new verification e-mails per account (VERIFY-3)', async () => {
    const user = await createUser(ctx, { verified: false });
    expect((await resend(ctx, user)).statusCode).toBe(200);
    expect((await resend(ctx, user)).statusCode).toBe(200);
    const limited = await resend(ctx, user);
    expect(limited.statusCode).toBe(429);
    expect(codeOf(limited)).toBe('rate_limited');
    // Another account has its own budget.
    expect((await resend(ctx, await createUser(ctx, { verified: false }))).statusCode).toBe(200);
  });
});
