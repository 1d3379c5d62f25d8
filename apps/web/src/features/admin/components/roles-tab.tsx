import { authzMessages } from '@dataplatform/contract';
import { useQuery } from '@tanstack/react-query';
import { rolesQueryOptions, useCreateRole, useDeleteRole, useUpdateRole } from '../api/roles.js';
import { listQueryProps } from '../../../components/data-table.js';
import { NamedItemsTab } from './named-items-tab.js';

// The form schemas (zod) load with the form, when a dialog opens (decision 030).
const loadRoleFormSchema = () => import('../schemas.js').then((m) => m.RoleFormSchema);

/** Roles tab (ADM-ROLES-1, ADM-ROLES-2): every role, paged in the browser. */
export function RolesTab() {
  const roles = useQuery(rolesQueryOptions());
  const createRole = useCreateRole();
  const updateRole = useUpdateRole();
  const deleteRole = useDeleteRole();
  return (
    <NamedItemsTab
      noun="Role"
      {...listQueryProps(roles)}
      loadingText="Loading roles..."
      emptyText="No roles yet."
      errorText="Roles could not be loaded."
      schema={loadRoleFormSchema}
      nameRequiredText={authzMessages.roleNameRequired}
      onCreate={(input) => createRole.mutateAsync(input)}
      onUpdate={(role, input) => updateRole.mutateAsync({ role, input })}
      onDelete={(role, done) => deleteRole.mutate(role.id, { onSuccess: done })}
      deleting={deleteRole.isPending}
    />
  );
}
