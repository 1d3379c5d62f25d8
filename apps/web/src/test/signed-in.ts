import { vi } from 'vitest';
import { clearSession } from '../lib/session.js';
import { dismissToast, getToasts } from '../lib/toast-store.js';

/**
 * After a test of a signed-in screen: the session and the shared query cache go (as on logout), any
 * stubbed global (alert, matchMedia) is restored, and the toast on screen is dismissed, so the next
 * test starts clean. The network's handlers are reset by setup.ts (src/test/api-server.ts).
 */
export function resetSignedInState(): void {
  clearSession();
  vi.unstubAllGlobals();
  const last = getToasts().at(-1);
  if (last) dismissToast(last.id);
}
