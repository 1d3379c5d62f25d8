import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation.js';

/**
 * A set of ids one record holds (a role's permissions, a user's roles, a tenant's members): `GET`
 * reads it, `PUT` with the array of ids replaces it whole. `key` names its queries under 'admin'.
 */
export function idSetResource<TSet>({
  key,
  path,
  savedToast,
}: {
  key: string;
  path: (ownerId: string) => string;
  savedToast: string;
}) {
  const keys = {
    all: ['admin', key] as const,
    detail: (ownerId: string) => [...keys.all, 'detail', ownerId] as const,
  };

  function setQueryOptions(ownerId: string) {
    return queryOptions({
      queryKey: keys.detail(ownerId),
      queryFn: ({ signal }) => apiRequest<TSet>({ path: path(ownerId), signal, admin: true }),
    });
  }

  /** `mutateAsync({ ownerId, ids })` sends the whole new set; the toast says it is saved. */
  function useReplaceSet() {
    return useInvalidatingMutation({
      mutationFn: ({ ownerId, ids }: { ownerId: string; ids: readonly string[] }) =>
        apiRequest<TSet>({ method: 'PUT', path: path(ownerId), json: ids, admin: true }),
      successToast: savedToast,
      invalidates: keys.all,
    });
  }

  return { keys, queryOptions: setQueryOptions, useReplace: useReplaceSet };
}
