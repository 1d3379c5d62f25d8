import type { UserMe, UserPublic, UserUpdateMe } from '@dataplatform/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { getStoredUser, setStoredUser } from '../../../lib/session.js';
import { currentUserKeys } from '../../../lib/current-user.js';

/** `PATCH /users/me`: a person's own name and e-mail. */
export function updateProfile(body: UserUpdateMe): Promise<UserPublic> {
  return apiRequest<UserPublic>({ method: 'PATCH', path: '/users/me', json: body });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    // The form shows the server's answer on its fields.
    meta: { errorToast: false },
    onSuccess: (user) => {
      // The stored `user` record follows (WEB-STORAGE-1), and so does the cached one.
      setStoredUser({
        ...getStoredUser(),
        id: user.id,
        email: user.email,
        full_name: user.full_name,
        is_superuser: user.is_superuser,
      });
      queryClient.setQueryData<UserMe>(currentUserKeys.all, (me) => (me ? { ...me, ...user } : me));
      return queryClient.invalidateQueries({ queryKey: currentUserKeys.all });
    },
  });
}
