import { useMutation, useQueryClient, type MutationMeta, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { showToast } from './toast-store.js';

export interface InvalidatingMutationOptions<TData, TVariables> {
  /** The call; it is given the query client too, for a call that needs the current user first. */
  mutationFn: (variables: TVariables, queryClient: QueryClient) => Promise<TData>;
  /** What the change makes stale: a key factory's `all`. */
  invalidates: QueryKey;
  /** The success toast, if the change has one (its text, or built from the answer). */
  successToast?: string | ((data: TData, variables: TVariables) => string);
  /** How a failure is told (`errorText`, `errorToast: false`), as for any operation. */
  meta?: MutationMeta;
}

/**
 * A mutation hook's one shape: the call, then on success its toast (if any) and the invalidation of
 * what it changed; `mutateAsync` settles once the stale queries are loaded again.
 */
export function useInvalidatingMutation<TData, TVariables = void>({
  mutationFn,
  invalidates,
  successToast,
  meta,
}: InvalidatingMutationOptions<TData, TVariables>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: TVariables) => mutationFn(variables, queryClient),
    meta,
    onSuccess: async (data: TData, variables: TVariables) => {
      if (successToast !== undefined) {
        showToast(typeof successToast === 'string' ? successToast : successToast(data, variables), 'success');
      }
      await queryClient.invalidateQueries({ queryKey: invalidates });
    },
  });
}
