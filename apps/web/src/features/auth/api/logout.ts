import { apiRequest } from '../../../lib/api-client.js';
import { clearSession } from '../../../lib/session.js';

/**
 * Logout (AUTH-FLOW-2): revoke the session on the server, then forget it here whatever the
 * server said (an already-revoked token must not keep anyone signed in).
 */
export async function logout(): Promise<void> {
  try {
    await apiRequest<void>({ method: 'POST', path: '/logout' });
  } catch {
    // The local session is cleared below either way.
  } finally {
    clearSession();
  }
}
