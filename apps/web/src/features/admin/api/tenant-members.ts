import type { TenantMembers } from '@dataplatform/contract';
import { idSetResource } from './id-set.js';

/** `GET` and `PUT /tenants/{tenant_id}/members`: the member user ids, replaced whole. */
const tenantMembers = idSetResource<TenantMembers>({
  key: 'tenant-members',
  path: (tenantId) => `/tenants/${tenantId}/members`,
  savedToast: 'Members updated successfully',
});

export const tenantMembersQueryOptions = tenantMembers.queryOptions;
export const useSetTenantMembers = tenantMembers.useReplace;
