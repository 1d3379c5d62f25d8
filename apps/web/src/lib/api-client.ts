import { ApiError } from './api-error.js';
import { clearSession, getAccessToken, getSelectedTenantId, getStoredUser } from './session.js';
import { paths } from '../config/paths.js';
import { navigateTo } from './navigation.js';

/** API base (WEB-CLIENT-1): same origin. */
export const API_BASE = '/api/v1';

type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under /api/v1, starting with a slash. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (the OAuth2 login form). */
  form?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * The admin console's calls (ADM-LAYOUT-3): also a JSON content type and `X-User-ID` from the
   * stored user id. The server never trusts that header; identity comes from the token.
   * A bodiless DELETE or POST gets no content type (the server refuses an empty JSON body).
   */
  admin?: boolean;
  /**
   * 'blob': the answer is a file (see apiDownload), not JSON. 'stream': server-sent events (`Accept:
   * text/event-stream`), the answer's body stream once the status is OK; aborting `signal` ends it.
   */
  responseType?: 'json' | 'blob' | 'stream';
  /**
   * Leave out X-Tenant-ID: for the calls that decide which tenant may be selected. The server refuses
   * every call naming a tenant the user may no longer use, so such a call must not carry one.
   */
  withoutTenant?: boolean;
  /**
   * Sent as nobody: no token, no tenant, no cookies. The pages a share link or an embed token opens
   * (issue 58) are their own grant; a signed-in person's session is neither used nor ended by them.
   */
  anonymous?: boolean;
}

/** A file the API answered with, and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search === '' ? '' : `?${search}`}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The file name of Content-Disposition (RFC 6266: filename* first), else the URL's last segment. */
function filenameOf(response: Response): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed encoding: fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition)?.[1];
  if (plain) return plain.trim();
  return decodeURIComponent(new URL(response.url, 'http://x').pathname.split('/').pop() ?? 'download');
}

/**
 * Whether a failed fetch was the caller's cancelling: its signal says so, whatever fetch threw (an
 * AbortError, of another realm's DOMException in tests, or the reason the caller gave to abort()).
 */
function cancelled(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** The headers every call carries: the bearer token and the selected tenant. */
function authHeaders(options: { withoutTenant?: boolean; anonymous?: boolean }): {
  headers: Record<string, string>;
  token: string | null;
} {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.anonymous) return { headers, token: null };
  const token = getAccessToken();
  if (!options.withoutTenant) headers['X-Tenant-ID'] = getSelectedTenantId();
  if (token) headers.Authorization = `Bearer ${token}`;
  return { headers, token };
}

/** Retry-After in seconds (RFC 9110: a number of seconds or an HTTP date), if the answer said. */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.round((date - Date.now()) / 1000));
}

/** The ApiError of a non-OK answer; a refused token ends the session, as for every call. */
function failure(
  url: string,
  token: string | null,
  status: number,
  statusText: string,
  body: unknown,
  retryAfter: string | null = null,
): ApiError {
  if (status === 401 && token) {
    clearSession();
    navigateTo(paths.login, { replace: true });
  }
  const retryAfterSeconds = retryAfterOf(retryAfter);
  const error = new ApiError({
    url,
    status,
    statusText,
    body,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
  // An administrator who must turn on two-factor sign-in first is sent to where that is done (TOTP-ADMIN-2).
  if (error.code === 'two_factor_enrollment_required') navigateTo(paths.settings.security, { replace: true });
  return error;
}

/**
 * The one way the web app calls the API: bearer token and X-Tenant-ID from storage on every call,
 * JSON in and out, an ApiError for every non-OK answer. A 401 on a call that carried a token means
 * the session is gone: the token and user are dropped and the app goes to /login.
 */
export async function apiRequest<T>(options: RequestOptions): Promise<T> {
  const url = buildUrl(options.path, options.query);
  const { headers, token } = authHeaders(options);
  // A bodiless DELETE or POST is left without one: the server refuses an empty JSON body.
  if (options.admin && ((options.method ?? 'GET') === 'GET' || options.json !== undefined)) {
    headers['Content-Type'] = 'application/json';
  }
  if (options.admin) {
    const userId = getStoredUser()?.id;
    if (userId) headers['X-User-ID'] = userId;
  }
  if (options.responseType === 'stream') headers.Accept = 'text/event-stream';
  let body: string | undefined;
  if (options.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }

  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: options.anonymous ? 'omit' : 'include',
      signal: options.signal,
    });
  } catch (error) {
    if (cancelled(options.signal)) throw ApiError.aborted(url);
    throw error;
  }

  if (options.responseType === 'stream' && response.ok && response.body) return response.body as T;
  let responseBody: unknown;
  try {
    responseBody =
      options.responseType === 'blob' && response.ok
        ? { blob: await response.blob(), filename: filenameOf(response) }
        : await readBody(response);
  } catch (error) {
    if (cancelled(options.signal)) throw ApiError.aborted(url);
    throw error;
  }
  if (!response.ok) {
    throw failure(url, token, response.status, response.statusText, responseBody, response.headers.get('retry-after'));
  }
  return responseBody as T;
}

interface UploadOptions {
  /** Path under /api/v1, starting with a slash. */
  path: string;
  query?: Record<string, QueryValue>;
  /** The request's whole body. */
  file: Blob;
  contentType: string;
  /** Called as the body goes out: bytes sent so far, of `total`. */
  onProgress?: (sent: number, total: number) => void;
  /** Aborting it stops the upload: the promise rejects with an aborted ApiError. */
  signal?: AbortSignal;
}

/** The connection went before an answer came (no status to show). */
const UPLOAD_CONNECTION_LOST = 'The connection to the server was lost before the upload finished.';

/**
 * A file sent as the body of a POST, with the token and X-Tenant-ID of every call and its
 * progress reported. XMLHttpRequest, because fetch reports no upload progress; otherwise it answers
 * as apiRequest does: the JSON body, or an ApiError (status 0 with UPLOAD_CONNECTION_LOST when the
 * connection failed).
 */
export function apiUpload<T>(options: UploadOptions): Promise<T> {
  const url = buildUrl(options.path, options.query);
  const { headers, token } = authHeaders({});
  headers['Content-Type'] = options.contentType;
  return new Promise<T>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(ApiError.aborted(url));
      return;
    }
    const request = new XMLHttpRequest();
    const onAbort = () => request.abort();
    const settle = () => options.signal?.removeEventListener('abort', onAbort);
    request.open('POST', url);
    request.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      options.onProgress?.(event.loaded, event.lengthComputable ? event.total : options.file.size);
    };
    request.onload = () => {
      settle();
      const text = request.responseText;
      let body: unknown = text === '' ? undefined : text;
      if (text !== '' && (request.getResponseHeader('content-type') ?? '').includes('json')) {
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          // Not JSON after all: keep the text.
        }
      }
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject(failure(url, token, request.status, request.statusText, body));
    };
    request.onerror = () => {
      settle();
      reject(new ApiError({ url, status: 0, statusText: '', body: undefined }, UPLOAD_CONNECTION_LOST));
    };
    request.onabort = () => {
      settle();
      reject(ApiError.aborted(url));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.send(options.file);
  });
}

/**
 * A file from the API (bearer token and X-Tenant-ID as on every call), with its server-given name;
 * a POST when the file is made from a JSON request (a report table's CSV); sent as nobody for the
 * viewers of a share link or an embed token.
 */
export function apiDownload(
  path: string,
  request: { json?: unknown; anonymous?: boolean } = {},
): Promise<DownloadedFile> {
  return apiRequest<DownloadedFile>({
    path,
    responseType: 'blob',
    ...(request.json !== undefined ? { method: 'POST' as const, json: request.json } : {}),
    ...(request.anonymous ? { anonymous: true } : {}),
  });
}
