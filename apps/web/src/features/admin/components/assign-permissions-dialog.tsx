import type { RolePublic } from '@dataplatform/contract';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { permissionsQueryOptions } from '../api/permissions.js';
import { rolePermissionsQueryOptions, useAssignRolePermissions } from '../api/role-permissions.js';
import { rolesQueryOptions } from '../api/roles.js';
import { AssignBody, AssignDialog } from './assign-dialog.js';

/** "Assign Permissions to Role" (ADM-RPERMS-1): a module of its own, loaded when it first opens. */
export function AssignPermissionsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <AssignDialog open={open} title="Assign Permissions to Role" onClose={onClose}>
      <AssignPermissionsBody onClose={onClose} />
    </AssignDialog>
  );
}

function AssignPermissionsBody({ onClose }: { onClose: () => void }) {
  const [role, setRole] = useState<RolePublic | null>(null);
  const roles = useQuery(rolesQueryOptions());
  const permissions = useQuery(permissionsQueryOptions());
  const current = useQuery({ ...rolePermissionsQueryOptions(role?.id ?? ''), enabled: role !== null });
  const assign = useAssignRolePermissions();
  return (
    <AssignBody
      picker={
        <Autocomplete
          value={role}
          onChange={(_event, chosen) => setRole(chosen)}
          options={roles.data?.data ?? []}
          loading={roles.isPending}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
          renderInput={(params) => <TextField {...params} label="Role" placeholder="Choose a role by name" />}
        />
      }
      targetId={role?.id}
      items={permissions.data?.data.map((permission) => ({ id: permission.id, label: permission.name }))}
      itemsLoading={permissions.isPending}
      currentIds={role === null ? undefined : current.data?.data.map((permission) => permission.id)}
      currentLoading={current.isPending}
      currentError={current.isError || permissions.isError}
      onAssign={(roleId, permissionIds) => assign.mutateAsync({ ownerId: roleId, ids: permissionIds })}
      onClose={onClose}
    />
  );
}
