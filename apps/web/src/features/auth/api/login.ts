import type { Token, TwoFactorChallenge, TwoFactorLogin } from '@dataplatform/contract';
import { apiRequest } from '../../../lib/api-client.js';
import { clearSession, setAccessToken, setStoredUser } from '../../../lib/session.js';
import { fetchCurrentUser } from '../../../lib/current-user.js';

/** Signed in, or (TOTP-LOGIN-1) the password was right and a code from the authenticator app is next. */
export type LoginOutcome = { twoFactor: false } | { twoFactor: true; challengeToken: string };

/**
 * Stores a new session's token, then loads and stores the current user; if that load fails the
 * session is dropped again (password log-in, the code step and single sign-on alike).
 */
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

/**
 * Login (AUTH-FLOW-1): `POST /login/access-token` with the form body. An account with two-factor
 * sign-in answers a challenge token instead of a session (TOTP-LOGIN-1): no session starts yet.
 */
export async function login(credentials: { username: string; password: string }): Promise<LoginOutcome> {
  const answer = await apiRequest<Token | TwoFactorChallenge>({
    method: 'POST',
    path: '/login/access-token',
    form: credentials,
  });
  if ('challenge_token' in answer) return { twoFactor: true, challengeToken: answer.challenge_token };
  await startSession(answer.access_token);
  return { twoFactor: false };
}

/** The code step (TOTP-LOGIN-3): the challenge token and a TOTP or recovery code open the session. */
export async function loginWithCode(body: TwoFactorLogin): Promise<void> {
  const token = await apiRequest<Token>({ method: 'POST', path: '/login/two-factor', json: body });
  await startSession(token.access_token);
}
