import type { RolePublic } from '@dataplatform/contract';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { lazyDialog } from '../../../components/lazy-dialog.js';
import { DataTable, listQueryProps, type DataTableColumn } from '../../../components/data-table.js';
import { rolePermissionsQueryOptions } from '../api/role-permissions.js';
import { rolesQueryOptions } from '../api/roles.js';
import { RowQueryStatus } from './row-query-status.js';
import { NAMED_ITEMS_PAGE_SIZE, TabBody, TabToolbar } from './tab-toolbar.js';

// The assignment dialog (its role picker, the transfer list) loads on its first opening (decision 030).
const AssignPermissionsDialog = lazyDialog(
  () => import('./assign-permissions-dialog.js').then((m) => m.AssignPermissionsDialog),
  (props) => props.open,
);

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
        onPreload={AssignPermissionsDialog.preload}
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
      <AssignPermissionsDialog open={assigning} onClose={() => setAssigning(false)} />
    </TabBody>
  );
}
