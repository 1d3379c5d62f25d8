import type { Token } from '@dataplatform/contract';
import { apiRequest } from '../../../lib/api-client.js';
import { clearSession, setAccessToken, setStoredUser } from '../../../lib/session.js';
import { fetchCurrentUser } from './current-user.js';

/**
 * Login (AUTH-FLOW-1): `POST /login/access-token` with the form body, store the token, then
 * load and store the current user. If that load fails the session is dropped again.
 */
export async function login(credentials: { username: string; password: string }): Promise<void> {
  const token = await apiRequest<Token>({ method: 'POST', path: '/login/access-token', form: credentials });
  await startSession(token.access_token);
}

/** Stores a new session's token and its user (password log-in and single sign-on alike). */
export async function startSession(accessToken: string): Promise<void> {
  setAccessToken(accessToken);
  try {
    const user = await fetchCurrentUser();
    setStoredUser({ id: user.id, email: user.email, full_name: user.full_name, is_superuser: user.is_superuser });
  } catch (error) {
    clearSession();
    throw error;
  }
}
