import type {
  Message,
  RecoveryCodes,
  TwoFactorConfirm,
  TwoFactorDisable,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@dataplatform/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

export const twoFactorKeys = {
  all: ['two-factor'] as const,
  status: () => [...twoFactorKeys.all, 'status'] as const,
};

/** `GET /users/me/two-factor`: on or off, recovery codes left, and whether an admin must turn it on. */
export function fetchTwoFactorStatus(): Promise<TwoFactorStatus> {
  return apiRequest<TwoFactorStatus>({ path: '/users/me/two-factor' });
}

export function twoFactorStatusQueryOptions() {
  return queryOptions({ queryKey: twoFactorKeys.status(), queryFn: fetchTwoFactorStatus, meta: { errorToast: false } });
}

/** `POST /users/me/two-factor/setup`: a new secret for the app; nothing changes until it is confirmed. */
export function useBeginTwoFactorSetup() {
  return useMutation({
    mutationFn: () => apiRequest<TwoFactorSetup>({ method: 'POST', path: '/users/me/two-factor/setup' }),
    meta: { errorToast: false },
  });
}

/** `POST /users/me/two-factor/confirm`: turns it on; answers the recovery codes, shown once. */
export function useConfirmTwoFactor() {
  return useInvalidatingMutation({
    mutationFn: (body: TwoFactorConfirm) =>
      apiRequest<RecoveryCodes>({ method: 'POST', path: '/users/me/two-factor/confirm', json: body }),
    // The form shows the server's answer on its field.
    meta: { errorToast: false },
    invalidates: twoFactorKeys.all,
  });
}

/** `POST /users/me/two-factor/disable`: the password and a current code turn it off. */
export function useDisableTwoFactor() {
  return useInvalidatingMutation({
    mutationFn: (body: TwoFactorDisable) =>
      apiRequest<Message>({ method: 'POST', path: '/users/me/two-factor/disable', json: body }),
    meta: { errorToast: false },
    invalidates: twoFactorKeys.all,
  });
}
