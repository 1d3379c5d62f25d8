import { AUDIT_ACTIONS, sessionMessages, userMessages, type AccountSessions } from '@dataplatform/contract';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestClock, createUser, useTestContext, type TestContext } from '../../../test/harness.js';
import { mailAfter } from '../../../test/mail.js';
import { createRole } from '../../../test/authz-fixtures.js';
import { auditLog, outbox, sessions } from '../../db/schema/index.js';
import { LAST_SEEN_INTERVAL_MINUTES } from './sessions.service.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MINUTE = 60_000;

/** Signs in over HTTP as a given browser from a given address; answers the bearer headers. */
async function signIn(
  ctx: TestContext,
  user: { email: string; password: string },
  device: { userAgent?: string; ip?: string } = {},
): Promise<{ authorization: string }> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/login/access-token',
    payload: new URLSearchParams({ username: user.email, password: user.password }).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(device.userAgent ? { 'user-agent': device.userAgent } : {}),
    },
    ...(device.ip ? { remoteAddress: device.ip } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

const me = (ctx: TestContext, headers: { authorization: string }) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers });

async function listSessions(ctx: TestContext, headers: { authorization: string }): Promise<AccountSessions> {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/users/me/sessions', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AccountSessions>();
}

const currentId = async (ctx: TestContext, headers: { authorization: string }) =>
  (await listSessions(ctx, headers)).data.find((session) => session.current)!.id;

async function auditActions(ctx: TestContext, actorId: string): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.actorId, actorId));
  return rows.map((row) => row.action);
}

async function newSignInMailsTo(ctx: TestContext, email: string): Promise<number> {
  const rows = await ctx.database.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.recipient, email), like(outbox.subject, '%New sign-in%')));
  return rows.length;
}

describe('own sessions', () => {
  const { ctx } = useTestContext();

  it('lists only the caller’s live sessions, newest use first, this one marked current', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const firefox = await signIn(ctx, owner, { userAgent: FIREFOX_LINUX, ip: '203.0.113.7' });
    const chrome = await signIn(ctx, owner, { userAgent: CHROME_MAC, ip: '198.51.100.2' });
    await signIn(ctx, other, { userAgent: CHROME_MAC });
    // A revoked one is not listed.
    const revoked = await signIn(ctx, owner, { userAgent: CHROME_MAC, ip: '198.51.100.3' });
    expect((await ctx.app.inject({ method: 'POST', url: '/api/v1/logout', headers: revoked })).statusCode).toBe(204);

    const { data } = await listSessions(ctx, firefox);
    expect(data).toHaveLength(3);
    const ownRows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, owner.id));
    const ownIds = new Set(ownRows.map((row) => row.id));
    expect(data.every((session) => ownIds.has(session.id))).toBe(true);
    expect(data.filter((session) => session.current)).toHaveLength(1);
    const current = data.find((session) => session.current)!;
    expect(current).toMatchObject({ ip: '203.0.113.7', user_agent: FIREFOX_LINUX, device: 'Firefox 133 on Linux' });
    expect(current.created_at).toEqual(expect.any(String));
    expect(current.last_seen_at).toEqual(expect.any(String));
    expect(data.map((session) => session.device)).toContain('Chrome 131 on macOS 10.15.7');
    // Seen from the other session, that one is current.
    const fromChrome = await listSessions(ctx, chrome);
    expect(fromChrome.data.find((session) => session.current)!.ip).toBe('198.51.100.2');
    // Nothing that authenticates is in the answer.
    expect(JSON.stringify(data)).not.toContain(firefox.authorization.slice(7));
  });

  it('signs out one session: its token is refused at once, the others work, the audit log says so', async () => {
    const owner = await createUser(ctx);
    const kept = await signIn(ctx, owner, { userAgent: CHROME_MAC });
    const doomed = await signIn(ctx, owner, { userAgent: FIREFOX_LINUX });
    const doomedId = await currentId(ctx, doomed);

    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/me/sessions/${doomedId}`,
      headers: kept,
    });
    expect(response.statusCode).toBe(204);
    expect((await me(ctx, doomed)).statusCode).toBe(401);
    expect((await me(ctx, kept)).statusCode).toBe(200);
    expect((await listSessions(ctx, kept)).data.map((session) => session.id)).not.toContain(doomedId);
    expect(await auditActions(ctx, owner.id)).toContain(AUDIT_ACTIONS.sessionRevoke);

    // Twice: the session is gone.
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/me/sessions/${doomedId}`,
      headers: kept,
    });
    expect(again.statusCode).toBe(404);
  });

  it('signing out the current session from the list is a logout', async () => {
    const owner = await createUser(ctx);
    const headers = await signIn(ctx, owner, { userAgent: CHROME_MAC });
    const id = await currentId(ctx, headers);
    const response = await ctx.app.inject({ method: 'DELETE', url: `/api/v1/users/me/sessions/${id}`, headers });
    expect(response.statusCode).toBe(204);
    expect((await me(ctx, headers)).statusCode).toBe(401);
  });

  it('answers 404 for another user’s session exactly as for an unknown one, and leaves it alive', async () => {
    const owner = await createUser(ctx);
    const stranger = await createUser(ctx);
    const strangersId = await currentId(ctx, stranger.headers);

    const theirs = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/me/sessions/${strangersId}`,
      headers: owner.headers,
    });
    const unknown = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/v1/users/me/sessions/00000000-0000-4000-8000-000000000000',
      headers: owner.headers,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ detail: sessionMessages.notFound, code: 'not_found' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(theirs.json());
    expect((await me(ctx, stranger.headers)).statusCode).toBe(200);
    expect((await listSessions(ctx, owner.headers)).data.map((session) => session.id)).not.toContain(strangersId);
  });

  it('signs out all others, keeping the current one', async () => {
    const owner = await createUser(ctx);
    const second = await signIn(ctx, owner, { userAgent: FIREFOX_LINUX });
    const third = await signIn(ctx, owner, { userAgent: CHROME_MAC });
    const bystander = await createUser(ctx);

    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/sessions/revoke-others',
      headers: third,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ revoked: 2 });
    expect((await me(ctx, third)).statusCode).toBe(200);
    expect((await me(ctx, second)).statusCode).toBe(401);
    expect((await me(ctx, owner.headers)).statusCode).toBe(401);
    expect((await me(ctx, bystander.headers)).statusCode).toBe(200);
    const { data } = await listSessions(ctx, third);
    expect(data).toHaveLength(1);
    expect(data[0]!.current).toBe(true);
    expect(await auditActions(ctx, owner.id)).toContain(AUDIT_ACTIONS.sessionsRevokeOthers);
  });
});

describe('sign out everywhere (superusers)', () => {
  const { ctx, admin } = useTestContext();

  it('ends every session of the user at once and writes the audit log', async () => {
    const target = await createUser(ctx);
    const second = await signIn(ctx, target, { userAgent: FIREFOX_LINUX });
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/users/${target.id}/sessions/revoke`,
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ revoked: 2 });
    expect((await me(ctx, target.headers)).statusCode).toBe(401);
    expect((await me(ctx, second)).statusCode).toBe(401);
    expect((await me(ctx, admin.headers)).statusCode).toBe(200);
    const [entry] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, AUDIT_ACTIONS.sessionsRevokeAll), eq(auditLog.targetId, target.id)));
    expect(entry).toMatchObject({ actorId: admin.id, targetType: 'user', after: { revoked: 2 } });
    // The user can sign in again afterwards.
    await signIn(ctx, target);
  });

  it('answers 404 for an unknown user', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/users/00000000-0000-4000-8000-000000000000/sessions/revoke',
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ detail: userMessages.notFound });
  });

  it('refuses anyone but a superuser, even one holding every permission, and signs nobody out', async () => {
    const target = await createUser(ctx);
    const plain = await createUser(ctx);
    const userAdmin = await createUser(ctx);
    await createRole(ctx, { grants: ['users:read', 'users:write'], userIds: [userAdmin.id] });
    for (const caller of [plain, userAdmin]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/users/${target.id}/sessions/revoke`,
        headers: caller.headers,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
    }
    expect((await me(ctx, target.headers)).statusCode).toBe(200);
  });
});

describe('last seen', () => {
  const clock = createTestClock(new Date('2026-03-01T09:00:00Z'));
  const { ctx } = useTestContext({ clock });

  const lastSeen = async (id: string) =>
    (await ctx.database.db.select().from(sessions).where(eq(sessions.id, id)))[0]!.lastSeenAt.toISOString();

  it(`is written at sign-in, then at most once every ${LAST_SEEN_INTERVAL_MINUTES} minutes of use`, async () => {
    const user = await createUser(ctx);
    const id = await currentId(ctx, user.headers);
    const signedInAt = clock.now().toISOString();
    expect(await lastSeen(id)).toBe(signedInAt);

    // Requests inside the interval write nothing.
    clock.advance(LAST_SEEN_INTERVAL_MINUTES * MINUTE - MINUTE);
    for (let i = 0; i < 5; i += 1) expect((await me(ctx, user.headers)).statusCode).toBe(200);
    expect(await lastSeen(id)).toBe(signedInAt);

    // The first request once it is due moves it; the next ones again do not.
    clock.advance(2 * MINUTE);
    const dueAt = clock.now().toISOString();
    expect((await me(ctx, user.headers)).statusCode).toBe(200);
    expect(await lastSeen(id)).toBe(dueAt);
    clock.advance(MINUTE);
    expect((await me(ctx, user.headers)).statusCode).toBe(200);
    expect(await lastSeen(id)).toBe(dueAt);
    expect((await listSessions(ctx, user.headers)).data[0]!.last_seen_at).toBe(dueAt);
  });
});

describe('new sign-in mail', () => {
  const { ctx } = useTestContext();

  it('is not sent for an account’s first sign-in, nor for a device it has used', async () => {
    const user = await createUser(ctx);
    expect(await newSignInMailsTo(ctx, user.email)).toBe(0);
    await signIn(ctx, user);
    await signIn(ctx, user);
    expect(await newSignInMailsTo(ctx, user.email)).toBe(0);
  });

  it('is sent once per new pair of address and browser, with when, where and how to sign it out', async () => {
    const user = await createUser(ctx);
    const mail = await mailAfter(
      ctx,
      (m) => m.to.includes(user.email) && m.subject.includes('New sign-in'),
      () => signIn(ctx, user, { userAgent: FIREFOX_LINUX, ip: '203.0.113.9' }),
    );
    expect(mail.subject).toBe('Data Platform - New sign-in to your account');
    expect(mail.text).toContain('Address: 203.0.113.9');
    expect(mail.text).toContain('Browser: Firefox 133 on Linux');
    expect(mail.text).toMatch(/Time: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(mail.text).toContain('Sign out');
    expect(mail.text).toContain(`${ctx.config.frontendHost}/settings/security`);
    expect(await newSignInMailsTo(ctx, user.email)).toBe(1);

    // The same pair again: known. The same browser from another address, or another browser: new.
    await signIn(ctx, user, { userAgent: FIREFOX_LINUX, ip: '203.0.113.9' });
    expect(await newSignInMailsTo(ctx, user.email)).toBe(1);
    await signIn(ctx, user, { userAgent: FIREFOX_LINUX, ip: '203.0.113.10' });
    expect(await newSignInMailsTo(ctx, user.email)).toBe(2);
    await signIn(ctx, user, { userAgent: CHROME_MAC, ip: '203.0.113.10' });
    expect(await newSignInMailsTo(ctx, user.email)).toBe(3);
    await signIn(ctx, user, { userAgent: CHROME_MAC, ip: '203.0.113.10' });
    expect(await newSignInMailsTo(ctx, user.email)).toBe(3);
  });

  it('is not sent for a failed sign-in', async () => {
    const user = await createUser(ctx);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/login/access-token',
      payload: new URLSearchParams({ username: user.email, password: 'wrong-password-1' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': FIREFOX_LINUX },
      remoteAddress: '203.0.113.50',
    });
    expect(response.statusCode).toBe(400);
    expect(await newSignInMailsTo(ctx, user.email)).toBe(0);
  });
});
