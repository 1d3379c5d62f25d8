import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '../test/api-server.js';
import { apiRequest } from './api-client.js';
import { ApiError } from './api-error.js';
import { registerNavigator } from './navigation.js';
import { STORAGE_KEYS } from './session.js';

interface SeenRequest {
  method: string;
  /** Path and query, as the client asked for them. */
  url: string;
  headers: Headers;
  body: string;
}

/** Answers every API call with `response` (through the tests' one network) and records what was asked. */
function serveWith(response: () => Response | Promise<Response>): SeenRequest[] {
  const seen: SeenRequest[] = [];
  server.use(
    http.all('*/api/v1/*', async ({ request }) => {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        url: `${url.pathname}${url.search}`,
        headers: request.headers,
        body: await request.text(),
      });
      return response();
    }),
  );
  return seen;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('apiRequest', () => {
  const navigations: string[] = [];
  beforeEach(() => {
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
  });
  afterEach(() => {
    vi.useRealTimers();
    registerNavigator(undefined);
  });

  it('sends the bearer token and X-Tenant-ID from storage on every call', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-1');
    localStorage.setItem(STORAGE_KEYS.selectedTenantId, 'tenant-7');
    const seen = serveWith(() => json(200, { ok: true }));
    await expect(apiRequest({ path: '/users/me', query: { skip: 0, limit: 10 } })).resolves.toEqual({ ok: true });
    const headers = seen[0]!.headers;
    expect(seen[0]?.url).toBe('/api/v1/users/me?skip=0&limit=10');
    expect(headers.get('Authorization')).toBe('Bearer token-1');
    expect(headers.get('X-Tenant-ID')).toBe('tenant-7');
    expect(headers.get('Accept')).toBe('application/json');
  });

  it('sends an empty X-Tenant-ID and no Authorization when nothing is stored', async () => {
    const seen = serveWith(() => json(200, {}));
    await apiRequest({ path: '/contact/', method: 'POST', json: { name: 'Al' } });
    const headers = seen[0]!.headers;
    expect(headers.get('X-Tenant-ID')).toBe('');
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(seen[0]?.body).toBe('{"name":"Al"}');
  });

  it('leaves out X-Tenant-ID when a call asks to go without it', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-1');
    localStorage.setItem(STORAGE_KEYS.selectedTenantId, 'tenant-7');
    const seen = serveWith(() => json(200, { data: [], count: 0 }));
    await apiRequest({ path: '/users/me/tenants', withoutTenant: true });
    const headers = seen[0]!.headers;
    expect(headers.has('X-Tenant-ID')).toBe(false);
    expect(headers.get('Authorization')).toBe('Bearer token-1');
  });

  // WEB-CLIENT-3: identity is the bearer header, never a cookie, so there is no XSRF pair to send.
  it('sends no XSRF header, even with an XSRF-TOKEN cookie set (WEB-CLIENT-3)', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-1');
    document.cookie = 'XSRF-TOKEN=from-a-cookie';
    try {
      const seen = serveWith(() => json(200, {}));
      await apiRequest({ path: '/users/me' });
      await apiRequest({ path: '/contact/', method: 'POST', json: { name: 'Al' } });
      expect(seen).toHaveLength(2);
      for (const { headers } of seen) {
        const names = [...headers.keys()];
        expect(names.filter((name) => name.includes('xsrf') || name.includes('csrf'))).toEqual([]);
        expect(names).toContain('authorization');
      }
    } finally {
      document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    }
  });

  it('puts no time limit of its own on a call: a slow answer still arrives (WEB-CLIENT-3)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    serveWith(async () => {
      await answered;
      return json(200, { late: true });
    });
    let settled = false;
    const call = apiRequest({ path: '/users/me' }).finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(settled).toBe(false);
    answer();
    await expect(call).resolves.toEqual({ late: true });
  });

  it('adds a JSON content type and X-User-ID from the stored user to admin calls only', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-1');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ id: 'user-42', is_superuser: true }));
    const seen = serveWith(() => json(200, {}));
    await apiRequest({ path: '/users/', admin: true });
    await apiRequest({ path: '/authorization/roles', method: 'POST', json: { name: 'r' }, admin: true });
    await apiRequest({ path: '/users/x', method: 'DELETE', admin: true });
    await apiRequest({ path: '/users/me' });
    const headers = seen.map((request) => request.headers);
    for (const admin of headers.slice(0, 2)) {
      expect(admin.get('Content-Type')).toBe('application/json');
      expect(admin.get('X-User-ID')).toBe('user-42');
    }
    // A bodiless DELETE carries no content type: the server refuses an empty JSON body.
    expect(headers[2]?.has('Content-Type')).toBe(false);
    expect(headers[2]?.get('X-User-ID')).toBe('user-42');
    expect(headers[3]?.has('X-User-ID')).toBe(false);
    expect(headers[3]?.has('Content-Type')).toBe(false);
  });

  it('posts the login form url-encoded', async () => {
    const seen = serveWith(() => json(200, { access_token: 't', token_type: 'bearer' }));
    await apiRequest({ path: '/login/access-token', method: 'POST', form: { username: 'a@b.co', password: 'p w' } });
    expect(seen[0]?.headers.get('Content-Type')).toBe('application/x-www-form-urlencoded');
    expect(seen[0]?.body).toBe('username=a%40b.co&password=p+w');
  });

  it('answers undefined for a 204', async () => {
    serveWith(() => new Response(null, { status: 204 }));
    await expect(apiRequest({ path: '/logout', method: 'POST' })).resolves.toBeUndefined();
  });

  it('throws an ApiError with url, status, statusText and body for a non-OK answer', async () => {
    serveWith(() => json(409, { detail: 'The user with this email already exists in the system' }));
    const error = await apiRequest({ path: '/users/signup', method: 'POST', json: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      url: '/api/v1/users/signup',
      status: 409,
      message: 'Conflict',
      body: { detail: 'The user with this email already exists in the system' },
    });
  });

  it('drops the session and goes to /login when a call with a token gets a 401', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'revoked');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ id: 'u1', is_superuser: false }));
    serveWith(() => json(401, { detail: 'Could not validate credentials' }));
    await expect(apiRequest({ path: '/users/me' })).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(navigations).toEqual(['/login']);
  });

  it('sends a superuser who must turn on two-factor sign-in to the Security tab, keeping the session (TOTP-ADMIN-2)', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'live');
    serveWith(() =>
      json(403, {
        detail: 'Administrators must turn on two-factor authentication',
        code: 'two_factor_enrollment_required',
      }),
    );
    await expect(apiRequest({ path: '/users/' })).rejects.toMatchObject({ status: 403 });
    expect(navigations).toEqual(['/settings/security']);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('live');
  });

  it('does not navigate on a 401 for a call made without a token', async () => {
    serveWith(() => json(401, { detail: 'Not authenticated' }));
    await expect(apiRequest({ path: '/users/me' })).rejects.toMatchObject({ status: 401 });
    expect(navigations).toEqual([]);
  });

  it('turns a cancelled request into an ApiError carrying "Request aborted"', async () => {
    serveWith(() => json(200, {}));
    const controller = new AbortController();
    controller.abort();
    const error = await apiRequest({ path: '/users/me', signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Request aborted');
  });

  it('calls a request cancelled with a reason of the caller\'s own "Request aborted" too', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    serveWith(async () => {
      await answered;
      return json(200, {});
    });
    const controller = new AbortController();
    const call = apiRequest({ path: '/users/me', signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(new Error('The page was left'));
    answer();
    const error = await call;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Request aborted');
  });
});
