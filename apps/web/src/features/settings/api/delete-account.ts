import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { clearSession } from '../../../lib/session.js';

/** `DELETE /users/me`: the API cancels the subscription and revokes every session. */
export function deleteAccount(): Promise<void> {
  return apiRequest<void>({ method: 'DELETE', path: '/users/me' });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: deleteAccount,
    meta: { errorText: 'Failed to delete your account' },
    // Storage and the query cache go with the account.
    onSuccess: () => clearSession(),
  });
}
