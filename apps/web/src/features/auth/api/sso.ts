import type { SsoExchangeResponse, Token } from '@dataplatform/contract';
import { apiRequest } from '../../../lib/api-client.js';
import { startSession } from './login.js';

/**
 * `POST /sso/start` (SSO-2): the provider's sign-in page for the e-mail's domain. The answer also
 * sets the cookie that binds the provider's redirect back to this browser.
 */
export async function startSso(email: string): Promise<string> {
  const answer = await apiRequest<{ authorization_url: string }>({
    method: 'POST',
    path: '/sso/start',
    json: { email },
  });
  return answer.authorization_url;
}

/** `POST /sso/exchange` (SSO-4): the one-time code from the URL fragment, for a session. */
export async function exchangeSsoCode(code: string): Promise<{ linkRequiredFor?: string }> {
  const answer = await apiRequest<SsoExchangeResponse>({ method: 'POST', path: '/sso/exchange', json: { code } });
  if (answer.status === 'link_required') return { linkRequiredFor: answer.email };
  await startSession(answer.access_token);
  return {};
}

/** `POST /sso/link` (SSO-5): the existing account's password links it, then signs in. */
export async function linkSsoAccount(code: string, password: string): Promise<void> {
  const token = await apiRequest<Token>({ method: 'POST', path: '/sso/link', json: { code, password } });
  await startSession(token.access_token);
}
