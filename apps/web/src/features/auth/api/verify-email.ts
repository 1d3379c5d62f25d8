import type { EmailVerified, VerifyEmail } from '@dataplatform/contract';
import { apiRequest } from '../../../lib/api-client.js';

/** `POST /verify-email/` with the token from the mailed link. */
export function verifyEmail(body: VerifyEmail): Promise<EmailVerified> {
  return apiRequest<EmailVerified>({ method: 'POST', path: '/verify-email/', json: body });
}
