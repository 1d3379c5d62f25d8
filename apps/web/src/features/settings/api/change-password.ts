import type { Message, UpdatePassword } from '@dataplatform/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

/** `PATCH /users/me/password`: this session stays; the account's other sessions are signed out. */
export function changePassword(body: UpdatePassword): Promise<Message> {
  return apiRequest<Message>({ method: 'PATCH', path: '/users/me/password', json: body });
}

export function useChangePassword() {
  // The form shows the server's answer on its fields.
  return useMutation({ mutationFn: changePassword, meta: { errorToast: false } });
}
