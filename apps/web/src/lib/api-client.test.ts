import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client.js';
import { ApiError } from './api-error.js';
import { registerNavigator } from './navigation.js';
import { STORAGE_KEYS } from './session.js';

interface SeenRequest {
  url: string;
  init: RequestInit;
}

/** Answers every fetch with `response` and records what was asked. */
function serveWith(response: () => Response): SeenRequest[] {
  const seen: SeenRequest[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    return response();
  });
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
    vi.unstubAllGlobals();
    registerNavigator(undefined);
  });

  it('sends the bearer token and X-Tenant-ID from storage on every call', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-1');
    localStorage.setItem(STORAGE_KEYS.selectedTenantId, 'tenant-7');
    const seen = serveWith(() => json(200, { ok: true }));
    await expect(apiRequest({ path: '/users/me', query: { skip: 0, limit: 10 } })).resolves.toEqual({ ok: true });
    const headers = seen[0]?.init.headers as Record<string, string>;
    expect(seen[0]?.url).toBe('/api/v1/users/me?skip=0&limit=10');
    expect(headers.Authorization).toBe('Bearer token-1');
    expect(headers['X-Tenant-ID']).toBe('tenant-7');
    expect(headers.Accept).toBe('application/json');
  });

  it('sends an empty X-Tenant-ID and no Authorization when nothing is stored', async () => {
    const seen = serveWith(() => json(200, {}));
    await apiRequest({ path: '/contact/', method: 'POST', json: { name: 'Al' } });
    const headers = seen[0]?.init.headers as Record<string, string>;
    expect(headers['X-Tenant-ID']).toBe('');
    expect(headers.Authorization).toBeUndefined();
    expect(headers['Content-Type']).toBe('application/json');
    expect(seen[0]?.init.body).toBe('{"name":"Al"}');
  });

  it('leaves out X-Tenant-ID when a call asks to go without it', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-1');
    localStorage.setItem(STORAGE_KEYS.selectedTenantId, 'tenant-7');
    const seen = serveWith(() => json(200, { data: [], count: 0 }));
    await apiRequest({ path: '/users/me/tenants', withoutTenant: true });
    const headers = seen[0]?.init.headers as Record<string, string>;
    expect(headers).not.toHaveProperty('X-Tenant-ID');
    expect(headers.Authorization).toBe('Bearer token-1');
  });

  // WEB-CLIENT-3: identity is the bearer header, never a cookie, so there is no XSRF pair to send.
  it('sends no XSRF header, even with an XSRF-TOKEN cookie set, and no timeout of its own (WEB-CLIENT-3)', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-1');
    document.cookie = 'XSRF-TOKEN=from-a-cookie';
    try {
      const seen = serveWith(() => json(200, {}));
      await apiRequest({ path: '/users/me' });
      await apiRequest({ path: '/contact/', method: 'POST', json: { name: 'Al' } });
      for (const { init } of seen) {
        const names = Object.keys(init.headers as Record<string, string>).map((name) => name.toLowerCase());
        expect(names.filter((name) => name.includes('xsrf') || name.includes('csrf'))).toEqual([]);
        expect(names).toContain('authorization');
        // No AbortSignal of the client's own: a call without the caller's signal never times out.
        expect(init.signal).toBeUndefined();
      }
    } finally {
      document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    }
  });

  it('adds a JSON content type and X-User-ID from the stored user to admin calls only', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token-1');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ id: 'user-42', is_superuser: true }));
    const seen = serveWith(() => json(200, {}));
    await apiRequest({ path: '/users/', admin: true });
    await apiRequest({ path: '/authorization/roles', method: 'POST', json: { name: 'r' }, admin: true });
    await apiRequest({ path: '/users/x', method: 'DELETE', admin: true });
    await apiRequest({ path: '/users/me' });
    const headers = seen.map((request) => request.init.headers as Record<string, string>);
    expect(headers[0]).toMatchObject({ 'Content-Type': 'application/json', 'X-User-ID': 'user-42' });
    expect(headers[1]).toMatchObject({ 'Content-Type': 'application/json', 'X-User-ID': 'user-42' });
    // A bodiless DELETE carries no content type: the server refuses an empty JSON body.
    expect(headers[2]?.['Content-Type']).toBeUndefined();
    expect(headers[2]?.['X-User-ID']).toBe('user-42');
    expect(headers[3]?.['X-User-ID']).toBeUndefined();
    expect(headers[3]?.['Content-Type']).toBeUndefined();
  });

  it('posts the login form url-encoded', async () => {
    const seen = serveWith(() => json(200, { access_token: 't', token_type: 'bearer' }));
    await apiRequest({ path: '/login/access-token', method: 'POST', form: { username: 'a@b.co', password: 'p w' } });
    expect((seen[0]?.init.headers as Record<string, string>)['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(seen[0]?.init.body).toBe('username=a%40b.co&password=p+w');
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
});
