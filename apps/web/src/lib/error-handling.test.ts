import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import { handleGlobalError } from './error-handling.js';
import { createErrorLog, errorLog } from './error-log.js';
import { registerNavigator } from './navigation.js';
import { STORAGE_KEYS } from './session.js';
import { dismissToast, getToasts } from './toast-store.js';

function apiError(status: number, body: unknown = undefined) {
  return new ApiError({ url: '/api/v1/x', status, statusText: '', body });
}

function lastToast() {
  return getToasts().at(-1);
}

describe('global error handling (WEB-ERR-3)', () => {
  const navigations: string[] = [];
  beforeEach(() => {
    navigations.length = 0;
    registerNavigator((to) => navigations.push(to));
    errorLog.clear();
  });
  afterEach(() => {
    registerNavigator(undefined);
    for (const toast of getToasts()) dismissToast(toast.id);
  });

  it('401 removes the access token and goes to /login without a toast', () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, 'expired');
    handleGlobalError(apiError(401, { detail: 'Could not validate credentials' }));
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(navigations).toEqual(['/login']);
    expect(getToasts()).toHaveLength(0);
  });

  it.each([
    [403, 'You do not have permission to perform this action'],
    [404, 'The requested resource was not found'],
    [500, 'An internal server error occurred'],
  ])('%i toasts "%s" whatever the body says', (status, text) => {
    handleGlobalError(apiError(status, { detail: 'server words' }));
    expect(lastToast()).toMatchObject({ message: text, severity: 'error' });
  });

  it('other statuses toast the detail text, the first msg of a list, or "Something went wrong."', () => {
    handleGlobalError(apiError(409, { detail: 'Role name already exists' }));
    expect(lastToast()?.message).toBe('Role name already exists');
    handleGlobalError(apiError(422, { detail: [{ loc: ['body', 'name'], msg: 'Role name is required', type: 'x' }] }));
    expect(lastToast()?.message).toBe('Role name is required');
    handleGlobalError(apiError(502, '<html>bad gateway</html>'));
    expect(lastToast()?.message).toBe('Something went wrong.');
  });

  it('non-API errors toast their message, or "An unexpected error occurred"', () => {
    handleGlobalError(new Error('Card declined'));
    expect(lastToast()?.message).toBe('Card declined');
    handleGlobalError({ weird: true });
    expect(lastToast()?.message).toBe('An unexpected error occurred');
  });

  it('logs every error, cancelled requests included (but does not toast those)', () => {
    handleGlobalError(ApiError.aborted('/api/v1/users/'));
    handleGlobalError(apiError(403));
    expect(errorLog.entries().map((entry) => entry.message)).toEqual([
      'Request aborted',
      'You do not have permission to perform this action',
    ]);
    expect(getToasts()).toHaveLength(1);
  });
});

describe('an operation with its own failure text or display', () => {
  afterEach(() => {
    for (const toast of getToasts()) dismissToast(toast.id);
  });

  it('toasts its own text, followed by the server’s reason for a 4xx', () => {
    handleGlobalError(apiError(402, { detail: 'Your card was declined.' }), {
      errorText: 'Failed to create subscription',
    });
    expect(lastToast()?.message).toBe('Failed to create subscription: Your card was declined.');
    handleGlobalError(apiError(500, { detail: 'Internal Server Error' }), { errorText: 'Failed to delete plan' });
    expect(lastToast()?.message).toBe('Failed to delete plan');
    handleGlobalError(new TypeError('Failed to fetch'), { errorText: 'Failed to add payment method' });
    expect(lastToast()?.message).toBe('Failed to add payment method');
  });

  it('shows no toast when the screen shows the failure itself, but still logs and still signs out on 401', () => {
    const navigations: string[] = [];
    registerNavigator((to) => navigations.push(to));
    errorLog.clear();
    handleGlobalError(apiError(422, { detail: 'taken' }), { errorToast: false });
    expect(getToasts()).toHaveLength(0);
    expect(errorLog.entries()).toHaveLength(1);
    localStorage.setItem(STORAGE_KEYS.accessToken, 'revoked');
    handleGlobalError(apiError(401), { errorToast: false });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(navigations).toEqual(['/login']);
    registerNavigator(undefined);
  });
});

describe('error log', () => {
  it('keeps at most 1000 entries, dropping the oldest', () => {
    const log = createErrorLog();
    for (let index = 0; index < 1005; index += 1) log.add({ message: `error ${index}` });
    expect(log.entries()).toHaveLength(1000);
    expect(log.entries()[0]?.message).toBe('error 5');
    expect(log.entries().at(-1)?.message).toBe('error 1004');
  });
});
