import type { RolePublic } from '@dataplatform/contract';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, listQueryProps, type DataTableColumn } from '../../../components/data-table.js';
import { permissionsQueryOptions } from '../api/permissions.js';
import { rolePermissionsQueryOptions, useAssignRolePermissions } from '../api/role-permissions.js';
import { rolesQueryOptions } from '../api/roles.js';
import { AssignBody, AssignDialog } from './assign-dialog.js';
import { RowQueryStatus } from './row-query-status.js';
import { NAMED_ITEMS_PAGE_SIZE, TabBody, TabToolbar } from './tab-toolbar.js';

/** A role's permissions as chips. */
function RolePermissionChips({ roleId }: { roleId: string }) {
  const permissions = useQuery(rolePermissionsQueryOptions(roleId));
  if (permissions.isPending || permissions.isError) return <RowQueryStatus failed={permissions.isError} />;
  if (permissions.data.data.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No permissions
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {permissions.data.data.map((permission) => (
        <Chip key={permission.id} label={permission.name} size="small" />
      ))}
    </Box>
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

/** Role Permissions tab (ADM-RPERMS-1): roles with their permissions, and "Assign Permissions to Role". */
export function RolePermissionsTab() {
  const roles = useQuery(rolesQueryOptions());
  const [assigning, setAssigning] = useState(false);

  const columns: DataTableColumn<RolePublic>[] = [
    { key: 'name', header: 'Role', minWidth: 160, render: (role) => role.name },
    {
      key: 'permissions',
      header: 'Permissions',
      minWidth: 240,
      render: (role) => <RolePermissionChips roleId={role.id} />,
    },
  ];

  return (
    <TabBody>
      <TabToolbar
        actionLabel="Assign Permissions"
        actionIcon={<PlaylistAddIcon />}
        onAction={() => setAssigning(true)}
      />
      <DataTable
        aria-label="Roles and their permissions"
        columns={columns}
        {...listQueryProps(roles)}
        rowKey={(role) => role.id}
        loadingText="Loading roles..."
        emptyText="No roles yet."
        errorText="Roles could not be loaded."
        pagination={{ mode: 'client', pageSize: NAMED_ITEMS_PAGE_SIZE }}
      />
      <AssignDialog open={assigning} title="Assign Permissions to Role" onClose={() => setAssigning(false)}>
        <AssignPermissionsBody onClose={() => setAssigning(false)} />
      </AssignDialog>
    </TabBody>
  );
}
