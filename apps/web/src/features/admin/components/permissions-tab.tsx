import { authzMessages } from '@dataplatform/contract';
import { useQuery } from '@tanstack/react-query';
import {
  isBuiltInPermission,
  permissionsQueryOptions,
  useCreatePermission,
  useDeletePermission,
  useUpdatePermission,
} from '../api/permissions.js';
import { listQueryProps } from '../../../components/data-table.js';
import { NamedItemsTab } from './named-items-tab.js';

// The form schemas (zod) load with the form, when a dialog opens (decision 030).
const loadPermissionFormSchema = () => import('../schemas.js').then((m) => m.PermissionFormSchema);

/** Permissions tab (ADM-PERMS-1): every permission, paged in the browser; built-ins are marked. */
export function PermissionsTab() {
  const permissions = useQuery(permissionsQueryOptions());
  const createPermission = useCreatePermission();
  const updatePermission = useUpdatePermission();
  const deletePermission = useDeletePermission();
  return (
    <NamedItemsTab
      noun="Permission"
      {...listQueryProps(permissions)}
      loadingText="Loading permissions..."
      emptyText="No permissions yet."
      errorText="Permissions could not be loaded."
      schema={loadPermissionFormSchema}
      nameRequiredText={authzMessages.permissionNameRequired}
      onCreate={(input) => createPermission.mutateAsync(input)}
      onUpdate={(permission, input) => updatePermission.mutateAsync({ permission, input })}
      onDelete={(permission, done) => deletePermission.mutate(permission.id, { onSuccess: done })}
      deleting={deletePermission.isPending}
      isBuiltIn={(permission) => isBuiltInPermission(permission.name)}
      builtInText={authzMessages.builtInPermission}
    />
  );
}
