import type { UserPublic } from '@dataplatform/contract';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { useServerPagedList } from '../../../components/server-paged-list.js';
import { lazyDialog } from '../../../components/lazy-dialog.js';
import {
  billingClockQueryOptions,
  planRolesQueryOptions,
  useAdvanceSandboxClock,
  userRolesQueryOptions,
} from '../api/user-roles.js';
import { USERS_PAGE_SIZE, usersQueryOptions } from '../api/users.js';
import { RowQueryStatus } from './row-query-status.js';
import { TabBody, TabToolbar } from './tab-toolbar.js';
import { LazyTooltip } from '../../../components/lazy-tooltip.js';

// The assignment dialog (its user picker, the transfer list) loads on its first opening (decision 030).
const AssignRolesDialog = lazyDialog(
  () => import('./assign-roles-dialog.js').then((m) => m.AssignRolesDialog),
  (props) => props.open,
);

/** Why a plan-held role cannot be removed here: it goes with the subscription (decision 046). */
const PLAN_ROLE_NOTE = 'Granted by a paid plan: it ends with the subscription and cannot be removed by hand here.';

/** The roles a user holds through a subscription, marked with their plan. */
function PlanRoleChips({ userId }: { userId: string }) {
  const grants = useQuery(planRolesQueryOptions(userId));
  if (!grants.data || grants.data.data.length === 0) return undefined;
  return (
    <>
      {grants.data.data.map((grant) => (
        <LazyTooltip key={`${grant.subscription_id}-${grant.role_id}`} title={PLAN_ROLE_NOTE}>
          <Chip
            label={`${grant.role_name} (plan: ${grant.plan_name ?? 'ended plan'})`}
            size="small"
            color="primary"
            variant="outlined"
            aria-description={PLAN_ROLE_NOTE}
          />
        </LazyTooltip>
      ))}
    </>
  );
}

/** Moves this customer's sandbox billing time a month on (shown only when the sandbox clock exists). */
function AdvanceClockButton({ userId }: { userId: string }) {
  const advance = useAdvanceSandboxClock();
  return (
    <Button
      size="small"
      disabled={advance.isPending}
      onClick={() => advance.mutate({ userId, seconds: 31 * 24 * 60 * 60 })}
    >
      Advance billing 31 days
    </Button>
  );
}

/** A user's roles as chips (one small call per row of the page). */
function UserRoleChips({ userId }: { userId: string }) {
  const roles = useQuery(userRolesQueryOptions(userId));
  if (roles.isPending || roles.isError) return <RowQueryStatus failed={roles.isError} />;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {roles.data.data.map((role) => (
        <Chip key={role.id} label={role.name} size="small" />
      ))}
      <PlanRoleChips userId={userId} />
      {roles.data.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No roles assigned by hand
        </Typography>
      ) : undefined}
    </Box>
  );
}

/** User Roles tab (ADM-UROLES-1 to ADM-UROLES-3): users with their roles, and the "Assign Roles to User" dialog. */
export function UserRolesTab() {
  const users = useServerPagedList(USERS_PAGE_SIZE, usersQueryOptions);
  const [assigning, setAssigning] = useState(false);
  const billing = useQuery(billingClockQueryOptions());

  const columns: DataTableColumn<UserPublic>[] = [
    { key: 'email', header: 'Email', minWidth: 200, render: (user) => user.email },
    { key: 'roles', header: 'Roles', minWidth: 200, render: (user) => <UserRoleChips userId={user.id} /> },
  ];
  // The sandbox's test clock (SANDBOX-CLOCK-1): offered only where the server says it exists.
  if (billing.data?.sandbox_clock === true) {
    columns.push({
      key: 'billing-clock',
      header: 'Sandbox billing clock',
      minWidth: 160,
      render: (user) => <AdvanceClockButton userId={user.id} />,
    });
  }

  return (
    <TabBody>
      <TabToolbar
        actionLabel="Assign Roles"
        actionIcon={<GroupAddIcon />}
        onAction={() => setAssigning(true)}
        onPreload={AssignRolesDialog.preload}
      />
      <DataTable
        aria-label="Users and their roles"
        columns={columns}
        {...users.table}
        rowKey={(user) => user.id}
        loadingText="Loading users..."
        emptyText="No users found."
        errorText="Users could not be loaded."
      />
      <AssignRolesDialog open={assigning} onClose={() => setAssigning(false)} />
    </TabBody>
  );
}
