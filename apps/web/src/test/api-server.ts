import type { UserMe } from '@dataplatform/contract';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/** The signed-in user most screens ask for (`GET /api/v1/users/me`); a test overrides it with server.use. */
export const DEFAULT_ME: UserMe = {
  id: '00000000-0000-4000-8000-0000000000a1',
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  is_active: true,
  is_superuser: false,
  email_verified: true,
  created_at: '2026-11-01T10:00:00.000Z',
  roles: [],
};

/**
 * The one network of the web tests (Mock Service Worker). Started in setup.ts with
 * `onUnhandledRequest: 'error'`: a call no handler answers fails the test. A test adds or overrides
 * handlers with `server.use(http.get('*\/api/v1/...', ...))`; they are reset after each test.
 */
export const server = setupServer(http.get('*/api/v1/users/me', () => HttpResponse.json(DEFAULT_ME)));

/** One request the app made: its method, the URL as the app asked for it (path and query), and its headers. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Headers;
}

/**
 * Records every request from now until the end of the test (the listener goes with the handlers in
 * setup.ts), in order. `url` is the path and query, as api-client.ts builds it ('/api/v1/...?skip=0').
 */
export function recordRequests(): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    requests.push({ method: request.method, url: `${url.pathname}${url.search}`, headers: request.headers });
  });
  return requests;
}

/**
 * Answers `GET` of a server-paged list (`path`, e.g. '/users/') from `all`, honouring skip and limit,
 * once `gate` opens; records every URL from then on.
 */
export function servePagedList(path: string, all: unknown[], gate: Promise<void> = Promise.resolve()) {
  server.use(
    http.get(`*/api/v1${path}`, async ({ request }) => {
      await gate;
      const params = new URL(request.url).searchParams;
      const skip = Number(params.get('skip'));
      const limit = Number(params.get('limit'));
      return HttpResponse.json({ data: all.slice(skip, skip + limit), count: all.length });
    }),
  );
  return recordRequests();
}

/** The URLs of the recorded requests, in order. */
export const urlsOf = (requests: RecordedRequest[]): string[] => requests.map((request) => request.url);

/** The recorded requests as `METHOD /path?query`, in order. */
export const callsOf = (requests: RecordedRequest[]): string[] =>
  requests.map((request) => `${request.method} ${request.url}`);

/** A request as a whole-server answerer (serveApi) sees it. */
export interface ApiCall {
  method: string;
  /** The body as text (JSON, or the urlencoded login form); undefined when there is none. */
  body: string | undefined;
  headers: Headers;
}

/**
 * For a test that plays a stateful server in one function (sessions that a DELETE removes, a report
 * a PUT saves): `answer` gets every `/api/v1` request, its URL as the app asked for it (path and
 * query), and answers it. A test with fixed answers uses `server.use(http.get(...))` instead.
 */
export function serveApi(answer: (url: string, call: ApiCall) => Response | Promise<Response>): void {
  server.use(
    http.all('*/api/v1/*', async ({ request }) => {
      const url = new URL(request.url);
      const text = await request.text();
      return answer(`${url.pathname}${url.search}`, {
        method: request.method,
        body: text === '' ? undefined : text,
        headers: request.headers,
      });
    }),
  );
}
