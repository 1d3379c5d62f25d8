import type { Message, NewPassword } from '@dataplatform/contract';
import { apiRequest } from '../../../lib/api-client.js';

/** `POST /password-recovery/{email}`: mails a reset link. */
export function requestPasswordRecovery(email: string): Promise<Message> {
  return apiRequest<Message>({ method: 'POST', path: `/password-recovery/${encodeURIComponent(email)}` });
}

/** `POST /reset-password/` with the token from the mailed link. */
export function resetPassword(body: NewPassword): Promise<Message> {
  return apiRequest<Message>({ method: 'POST', path: '/reset-password/', json: body });
}
