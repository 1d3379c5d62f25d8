import type { ContactStatus, ContactSubmission, ContactSubmissions } from '@dataplatform/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export interface ContactListParams {
  skip: number;
  limit: number;
  /** Only messages of this status; all of them when absent. */
  status?: ContactStatus;
}

export const contactKeys = {
  all: ['contacts'] as const,
  list: (params: ContactListParams) => [...contactKeys.all, 'list', params] as const,
  unreadCount: () => [...contactKeys.all, 'unread-count'] as const,
};

/** `GET /contact/`: the contact-form inbox, newest first. */
export function fetchContacts(params: ContactListParams): Promise<ContactSubmissions> {
  return apiRequest<ContactSubmissions>({ path: '/contact/', query: { ...params } });
}

export function contactsQueryOptions(params: ContactListParams) {
  return queryOptions({
    queryKey: contactKeys.list(params),
    queryFn: () => fetchContacts(params),
    placeholderData: (previous) => previous,
    meta: { errorToast: false },
  });
}

/** How many messages nobody has opened yet: one row asked for, the total read from `count`. */
export function unreadContactsQueryOptions() {
  return queryOptions({
    queryKey: contactKeys.unreadCount(),
    queryFn: async () => (await fetchContacts({ skip: 0, limit: 1, status: 'new' })).count,
    meta: { errorToast: false },
  });
}

/** `PATCH /contact/{contact_id}/status?status=` */
export function updateContactStatus(id: string, status: ContactStatus): Promise<ContactSubmission> {
  return apiRequest<ContactSubmission>({
    method: 'PATCH',
    path: `/contact/${encodeURIComponent(id)}/status`,
    query: { status },
  });
}

export function useUpdateContactStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ContactStatus }) => updateContactStatus(id, status),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactKeys.all }),
  });
}
