import type { EmailVerificationStatus, Message } from '@dataplatform/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export const emailVerificationKeys = {
  all: ['email-verification'] as const,
  status: () => [...emailVerificationKeys.all, 'status'] as const,
};

/** `GET /users/me/email-verification`: verified or not, and a new address waiting for its link. */
export function fetchEmailVerificationStatus(): Promise<EmailVerificationStatus> {
  return apiRequest<EmailVerificationStatus>({ path: '/users/me/email-verification' });
}

export function emailVerificationStatusQueryOptions() {
  return queryOptions({
    queryKey: emailVerificationKeys.status(),
    queryFn: fetchEmailVerificationStatus,
    meta: { errorToast: false },
  });
}

/** `POST /users/me/email-verification`: mails a new link (to the pending address if a change waits). */
export function useResendVerificationEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<Message>({ method: 'POST', path: '/users/me/email-verification' }),
    // The banner shows the answer, success or not, where the button is; the status is loaded again
    // either way (not useInvalidatingMutation), as a refused resend may mean the address is verified now.
    meta: { errorToast: false },
    onSettled: () => queryClient.invalidateQueries({ queryKey: emailVerificationKeys.all }),
  });
}
