import { AUDIT_ACTIONS, ssoMessages } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, ssoConnections, tenantMembers, tenants, users } from '../../db/schema/index.js';
import { createUser, detailOf, login, useTestContext } from '../../../test/harness.js';
import { isRecoveryMailTo, mailAfter } from '../../../test/mail.js';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../../test/oidc-provider.js';

const { ctx, admin } = useTestContext();
let provider: TestOidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: ['https://app.example.test/api/v1/sso/callback'] });
});
afterAll(() => provider.close());

let counter = 0;
/** A fresh domain for each test, so connections never collide. */
function freshDomain() {
  counter += 1;
  return `corp${counter}.example`;
}

/** `POST /sso/connections` as the superuser, with this body. */
function postConnection(payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'POST', url: '/api/v1/sso/connections', headers: admin.headers, payload });
}

async function createConnection(overrides: Record<string, unknown> = {}) {
  const response = await postConnection({
    name: `Connection ${freshDomain()}`,
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    domains: [freshDomain()],
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; domains: string[]; tenant_id: string | null }>();
}

/** POST /sso/start as a browser: the authorization URL and the cookie binding the flow. */
async function start(email: string) {
  const response = await ctx.app.inject({ method: 'POST', url: '/api/v1/sso/start', payload: { email } });
  expect(response.statusCode, response.body).toBe(200);
  const setCookie = String(response.headers['set-cookie']);
  expect(setCookie).toMatch(
    /^dp_sso_flow=[^;]+; Path=\/api\/v1\/sso\/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
  );
  return { url: response.json<{ authorization_url: string }>().authorization_url, cookie: setCookie.split(';')[0]! };
}

/** The provider's redirect back, followed by the browser; answers the fragment of where it lands. */
async function callback(returned: URL, cookie: string | undefined) {
  expect(returned.origin + returned.pathname).toBe('https://app.example.test/api/v1/sso/callback');
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/sso/callback${returned.search}`,
    headers: cookie ? { cookie } : {},
  });
  expect(response.statusCode).toBe(302);
  const location = new URL(String(response.headers.location));
  expect(location.origin + location.pathname).toBe('https://app.example.test/login/sso');
  expect(location.search).toBe('');
  return new URLSearchParams(location.hash.slice(1));
}

function exchange(code: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/v1/sso/exchange', payload: { code } });
}

/** A whole sign-in of `accountId` at the provider, starting from `email` typed on the login page. */
async function signIn(email: string, accountId: string) {
  const started = await start(email);
  return callback(await signInAtProvider(started.url, accountId), started.cookie);
}

async function me(token: string) {
  return ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${token}` } });
}

async function auditOf(action: string, targetId: string) {
  const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId));
  return rows.filter((row) => row.action === action);
}

describe('SSO-1 connections, superusers only', () => {
  it('creates, lists, updates and deletes a connection; the client secret is sealed and never answered', async () => {
    const domain = freshDomain();
    const created = await createConnection({ domains: [domain.toUpperCase(), domain] });
    expect(created.domains).toEqual([domain]);
    expect(JSON.stringify(created)).not.toContain(provider.clientSecret);

    const [row] = await ctx.database.db.select().from(ssoConnections).where(eq(ssoConnections.id, created.id));
    expect(row!.clientSecretSealed).toMatch(/^v1\./);
    expect(row!.clientSecretSealed).not.toContain(provider.clientSecret);

    const list = await ctx.app.inject({ method: 'GET', url: '/api/v1/sso/connections', headers: admin.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: { id: string }[] }>().data.map((c) => c.id)).toContain(created.id);
    expect(list.body).not.toContain(provider.clientSecret);
    expect(list.body).not.toContain(row!.clientSecretSealed);

    // Updating without a secret keeps the sealed one.
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/sso/connections/${created.id}`,
      headers: admin.headers,
      payload: { allow_password_recovery: true },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ allow_password_recovery: true, domains: [domain] });
    const [after] = await ctx.database.db.select().from(ssoConnections).where(eq(ssoConnections.id, created.id));
    expect(after!.clientSecretSealed).toBe(row!.clientSecretSealed);

    const audited = await ctx.database.db.select().from(auditLog).where(eq(auditLog.targetId, created.id));
    expect(audited.map((entry) => entry.action)).toEqual([
      AUDIT_ACTIONS.ssoConnectionCreate,
      AUDIT_ACTIONS.ssoConnectionUpdate,
    ]);
    expect(JSON.stringify(audited)).not.toContain(provider.clientSecret);

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/sso/connections/${created.id}`,
      headers: admin.headers,
    });
    expect(deleted.json()).toEqual({ message: ssoMessages.deleted });
    expect((await auditOf(AUDIT_ACTIONS.ssoConnectionDelete, created.id)).length).toBe(1);
  });

  it('refuses a domain another connection serves, an http issuer off this machine and an unknown tenant', async () => {
    const first = await createConnection();
    const taken = await postConnection({
      name: 'Second',
      issuer: provider.issuer,
      client_id: 'x',
      client_secret: 'y',
      domains: first.domains,
    });
    expect(taken.statusCode).toBe(409);
    expect(detailOf(taken)).toBe(ssoMessages.domainTaken);

    const http = await postConnection({
      name: 'Plain',
      issuer: 'http://idp.example.com',
      client_id: 'x',
      client_secret: 'y',
      domains: ['a.example'],
    });
    expect(http.statusCode).toBe(422);
    expect(detailOf(http)).toBe(ssoMessages.issuerInvalid);

    const tenant = await postConnection({
      name: 'Tenant',
      issuer: provider.issuer,
      client_id: 'x',
      client_secret: 'y',
      domains: [freshDomain()],
      tenant_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(tenant.statusCode).toBe(422);
  });

  it('is refused to a user holding every permission but not a superuser', async () => {
    const user = await createUser(ctx);
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/sso/connections', headers: user.headers });
    expect(response.statusCode).toBe(403);
  });
});

describe('SSO-2 starting a sign-in', () => {
  it('answers the same for an unknown domain whether or not the address has an account', async () => {
    const existing = await createUser(ctx, { email: 'someone@nosso.example' });
    const answers = await Promise.all(
      [existing.email, 'nobody@nosso.example'].map((email) =>
        ctx.app.inject({ method: 'POST', url: '/api/v1/sso/start', payload: { email } }),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ detail: ssoMessages.notConfigured, code: 'sso_not_configured' });
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it('sends the browser to the provider with PKCE (S256), state, nonce and the callback', async () => {
    const connection = await createConnection();
    const { url } = await start(`ann@${connection.domains[0]}`);
    const params = new URL(url).searchParams;
    expect(url.startsWith(`${provider.issuer}/`)).toBe(true);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toBeTruthy();
    expect(params.get('nonce')).toBeTruthy();
    expect(params.get('redirect_uri')).toBe('https://app.example.test/api/v1/sso/callback');
    expect(params.get('client_id')).toBe(provider.clientId);
  });
});

describe('SSO-3 SSO-4 the callback', () => {
  it('first sign-in creates a verified account in the connection tenant and hands over a one-time code', async () => {
    const [tenant] = await ctx.database.db
      .insert(tenants)
      .values({ name: `Acme ${freshDomain()}` })
      .returning();
    const connection = await createConnection({ tenant_id: tenant!.id });
    const email = `new.person@${connection.domains[0]}`;
    provider.accounts.set('new-person', { email, email_verified: true, name: 'New Person' });

    const landed = await signIn(email, 'new-person');
    const code = landed.get('code');
    expect(code, String(landed)).toBeTruthy();

    const exchanged = await exchange(code!);
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const body = exchanged.json<{ status: string; access_token: string }>();
    expect(body.status).toBe('signed_in');
    const profile = await me(body.access_token);
    expect(profile.json()).toMatchObject({ email, full_name: 'New Person' });

    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(user!.emailVerifiedAt).toBeInstanceOf(Date);
    const members = await ctx.database.db.select().from(tenantMembers).where(eq(tenantMembers.userId, user!.id));
    expect(members.map((member) => member.tenantId)).toEqual([tenant!.id]);
    const audited = await auditOf(AUDIT_ACTIONS.ssoSignIn, user!.id);
    expect(audited[0]!.after).toMatchObject({ connection_id: connection.id, account_created: true });

    // The code works once.
    expect((await exchange(code!)).json()).toEqual({ detail: ssoMessages.invalidCode, code: 'sso_invalid_code' });

    // The second sign-in finds the same account by the provider's subject.
    const again = await signIn(email, 'new-person');
    const second = await exchange(again.get('code')!);
    expect((await me(second.json<{ access_token: string }>().access_token)).json()).toMatchObject({ id: user!.id });
  });

  it('refuses a callback whose state was changed, or that comes without the browser cookie', async () => {
    const connection = await createConnection();
    const email = `state@${connection.domains[0]}`;
    provider.accounts.set('state-person', { email, email_verified: true });

    const started = await start(email);
    const returned = await signInAtProvider(started.url, 'state-person');
    const forged = new URL(returned);
    forged.searchParams.set('state', 'forged-state');
    expect((await callback(forged, started.cookie)).get('error')).toBe('sso_failed');

    const other = await start(email);
    const returnedOther = await signInAtProvider(other.url, 'state-person');
    expect((await callback(returnedOther, undefined)).get('error')).toBe('sso_failed');
    // Another browser's cookie does not do either.
    const third = await start(email);
    const returnedThird = await signInAtProvider(third.url, 'state-person');
    expect((await callback(returnedThird, started.cookie)).get('error')).toBe('sso_failed');
    expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('refuses an ID token whose nonce is not the one the flow sent', async () => {
    const connection = await createConnection();
    const email = `nonce@${connection.domains[0]}`;
    provider.accounts.set('nonce-person', { email, email_verified: true });
    const started = await start(email);
    const tampered = new URL(started.url);
    tampered.searchParams.set('nonce', 'a-nonce-the-platform-never-sent');
    const landed = await callback(await signInAtProvider(tampered.href, 'nonce-person'), started.cookie);
    expect(landed.get('error')).toBe('sso_failed');
    expect(landed.get('code')).toBeNull();
  });

  it('refuses an ID token signed by a key the issuer does not publish', async () => {
    const connection = await createConnection();
    const email = `key@${connection.domains[0]}`;
    provider.accounts.set('key-person', { email, email_verified: true });
    const started = await start(email);
    const returned = await signInAtProvider(started.url, 'key-person');
    provider.serveForeignKeys(true);
    try {
      expect((await callback(returned, started.cookie)).get('error')).toBe('sso_failed');
    } finally {
      provider.serveForeignKeys(false);
    }
    expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('refuses an e-mail the provider has not verified', async () => {
    const connection = await createConnection();
    const email = `unverified@${connection.domains[0]}`;
    provider.accounts.set('unverified', { email, email_verified: false });
    expect((await signIn(email, 'unverified')).get('error')).toBe('email_unverified');
    expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('refuses an e-mail outside the connection domains', async () => {
    const connection = await createConnection();
    provider.accounts.set('outsider', { email: 'outsider@elsewhere.example', email_verified: true });
    expect((await signIn(`outsider@${connection.domains[0]}`, 'outsider')).get('error')).toBe('domain_not_allowed');
    expect(await ctx.database.db.select().from(users).where(eq(users.email, 'outsider@elsewhere.example'))).toEqual([]);
  });
});

describe('SSO-5 linking an existing password account', () => {
  it('links only after the account password is given', async () => {
    const connection = await createConnection();
    const existing = await createUser(ctx, { email: `existing@${connection.domains[0]}` });
    provider.accounts.set('existing', { email: existing.email, email_verified: true });

    const landed = await signIn(existing.email, 'existing');
    const code = landed.get('code')!;
    const first = await exchange(code);
    expect(first.json()).toEqual({ status: 'link_required', email: existing.email });
    // Asking again answers the same: nothing was linked or signed in meanwhile.
    expect((await exchange(code)).json()).toEqual({ status: 'link_required', email: existing.email });
    expect(await auditOf(AUDIT_ACTIONS.ssoLink, existing.id)).toEqual([]);

    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/sso/link',
      payload: { code, password: 'not-the-password' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ detail: ssoMessages.incorrectPassword, code: 'incorrect_password' });

    const right = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/sso/link',
      payload: { code, password: existing.password },
    });
    expect(right.statusCode, right.body).toBe(200);
    expect((await me(right.json<{ access_token: string }>().access_token)).json()).toMatchObject({ id: existing.id });
    expect((await auditOf(AUDIT_ACTIONS.ssoLink, existing.id)).length).toBe(1);

    // Linked: the next sign-in goes straight in, and the password still works too.
    const next = await exchange((await signIn(existing.email, 'existing')).get('code')!);
    expect(next.json()).toMatchObject({ status: 'signed_in' });
    expect(await login(ctx, existing.email, existing.password)).toBeTruthy();
  });

  it('lets five wrong passwords kill the link code', async () => {
    const connection = await createConnection();
    const existing = await createUser(ctx, { email: `guess@${connection.domains[0]}` });
    provider.accounts.set('guess', { email: existing.email, email_verified: true });
    const code = (await signIn(existing.email, 'guess')).get('code')!;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await ctx.app.inject({ method: 'POST', url: '/api/v1/sso/link', payload: { code, password: 'x' } });
      expect(wrong.json<{ code: string }>().code).toBe('incorrect_password');
    }
    const late = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/sso/link',
      payload: { code, password: existing.password },
    });
    expect(late.json<{ code: string }>().code).toBe('sso_invalid_code');
  });
});

describe('SSO-6 password recovery of accounts single sign-on made', () => {
  async function ssoAccount(allowRecovery: boolean) {
    const connection = await createConnection({ allow_password_recovery: allowRecovery });
    const email = `recover-${String(allowRecovery)}@${connection.domains[0]}`;
    provider.accounts.set(email, { email, email_verified: true });
    await exchange((await signIn(email, email)).get('code')!);
    return email;
  }

  function recover(email: string) {
    return ctx.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${encodeURIComponent(email)}` });
  }

  it('answers the same but mails "sign in with SSO" instead of a link when the connection does not allow it', async () => {
    const email = await ssoAccount(false);
    let answer: Awaited<ReturnType<typeof recover>> | undefined;
    const mail = await mailAfter(ctx, isRecoveryMailTo(email), async () => {
      answer = await recover(email);
    });
    expect(answer!.statusCode).toBe(200);
    expect((await recover('nobody-at-all@example.com')).json()).toEqual(answer!.json());
    expect(mail.text).toContain('Sign in with SSO');
    expect(mail.text).not.toContain('reset-password?token=');
  });

  it('mails a reset link when the connection allows recovery', async () => {
    const email = await ssoAccount(true);
    const mail = await mailAfter(ctx, isRecoveryMailTo(email), () => recover(email));
    expect(mail.text).toContain('reset-password?token=');
  });
});
