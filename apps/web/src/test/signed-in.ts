import { vi } from 'vitest';
import { clearSession } from '../lib/session.js';
import { dismissToast, getToasts } from '../lib/toast-store.js';

/**
 * After a test of a signed-in screen: the session and the shared query cache go (as on logout), the
 * stubbed fetch is restored, and the toast on screen is dismissed, so the next test starts clean.
 */
export function resetSignedInState(): void {
  clearSession();
  vi.unstubAllGlobals();
  const last = getToasts().at(-1);
  if (last) dismissToast(last.id);
}

/** Stubs fetch to answer every call with `answer()`; the returned list records each URL asked for. */
export function recordFetch(answer: () => Response | Promise<Response>): string[] {
  const urls: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    urls.push(url);
    return answer();
  });
  return urls;
}
