import type { AuditEntries } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export interface AuditLogParams {
  skip: number;
  limit: number;
  actor_id?: string;
  target_type?: string;
  action?: string;
}

export const auditLogKeys = {
  all: ['audit-log'] as const,
  list: (params: AuditLogParams) => [...auditLogKeys.all, 'list', params] as const,
};

/** `GET /audit/`: newest first; the filters combine with AND. */
export function fetchAuditLog(params: AuditLogParams): Promise<AuditEntries> {
  return apiRequest<AuditEntries>({ path: '/audit/', query: { ...params } });
}

export function auditLogQueryOptions(params: AuditLogParams) {
  return queryOptions({
    queryKey: auditLogKeys.list(params),
    queryFn: () => fetchAuditLog(params),
    placeholderData: (previous) => previous,
    // The log changes with every admin action: read it fresh each time the tab opens.
    staleTime: 0,
    refetchOnMount: 'always',
    meta: { errorToast: false },
  });
}
