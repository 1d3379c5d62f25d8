import type { UserPublic } from '@dataplatform/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { rolesQueryOptions } from '../api/roles.js';
import { useAssignUserRoles, userRolesQueryOptions } from '../api/user-roles.js';
import { AssignBody, AssignDialog } from './assign-dialog.js';
import { UserPicker } from './user-picker.js';

/** "Assign Roles to User" (ADM-UROLES-1): a module of its own, loaded when it first opens. */
export function AssignRolesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <AssignDialog open={open} title="Assign Roles to User" onClose={onClose}>
      <AssignRolesBody onClose={onClose} />
    </AssignDialog>
  );
}

function AssignRolesBody({ onClose }: { onClose: () => void }) {
  const [user, setUser] = useState<UserPublic | null>(null);
  const roles = useQuery(rolesQueryOptions());
  const current = useQuery({ ...userRolesQueryOptions(user?.id ?? ''), enabled: user !== null });
  const assign = useAssignUserRoles();
  return (
    <AssignBody
      picker={<UserPicker value={user} onChange={setUser} />}
      targetId={user?.id}
      items={roles.data?.data.map((role) => ({ id: role.id, label: role.name }))}
      itemsLoading={roles.isPending}
      currentIds={user === null ? undefined : current.data?.data.map((role) => role.id)}
      currentLoading={current.isPending}
      currentError={current.isError || roles.isError}
      onAssign={(userId, roleIds) => assign.mutateAsync({ ownerId: userId, ids: roleIds })}
      onClose={onClose}
    />
  );
}
