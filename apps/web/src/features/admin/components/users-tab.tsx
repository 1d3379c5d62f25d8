import { twoFactorMessages, type UserPublic } from '@dataplatform/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import LockResetIcon from '@mui/icons-material/LockReset';
import LogoutIcon from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { DialogCheckboxField, DialogPasswordField, DialogTextField } from '../../../components/dialog-fields.js';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { LazyRowConfirmDialog } from '../../../components/lazy-confirm-dialog.js';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { useServerPagedList } from '../../../components/server-paged-list.js';
import { FormDialog } from '../../../components/form-dialog.js';
import { fieldProps, passwordFieldProps } from '../../../components/form-field.js';
import { SearchField } from '../../../components/search-field.js';
import { getStoredUser } from '../../../lib/session.js';
import {
  USERS_PAGE_SIZE,
  useCreateUser,
  useDeleteUser,
  useResetUserTwoFactor,
  useSignOutUserEverywhere,
  useUpdateUser,
  usersQueryOptions,
} from '../api/users.js';
import type { UserCreateFormValues, UserEditFormValues } from '../schemas.js';
import { RowActionButton } from './row-action-button.js';
import { TabBody, TabToolbar } from './tab-toolbar.js';
import { useSettledValue } from '../../../lib/use-settled-value.js';

// The form schemas (zod) load with the form, when a dialog opens (decision 030).
const loadUserCreateFormSchema = () => import('../schemas.js').then((m) => m.UserCreateFormSchema);
const loadUserEditFormSchema = () => import('../schemas.js').then((m) => m.UserEditFormSchema);

/** Why a superuser's own row cannot be deleted, deactivated or demoted (the server refuses too). */
export const SELF_PROTECTION_TEXT = 'You cannot delete or deactivate your own account, or remove your own admin role.';

const SEARCH_DELAY_MS = 300;

const createDefaults: UserCreateFormValues = {
  email: '',
  full_name: '',
  password: '',
  is_active: true,
  is_superuser: false,
};

/** Users tab (ADM-USERS-1 to ADM-USERS-7): server paging, search by e-mail or name, create, edit, delete. */
export function UsersTab() {
  const ownId = getStoredUser()?.id;
  const [search, setSearch] = useState('');
  const q = useSettledValue(search.trim(), SEARCH_DELAY_MS);
  const { paging, table } = useServerPagedList(USERS_PAGE_SIZE, (page) => usersQueryOptions({ ...page, q }));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<UserPublic>();
  const [deleting, setDeleting] = useState<UserPublic>();
  const [signingOut, setSigningOut] = useState<UserPublic>();
  const createUser = useCreateUser();
  const signOutEverywhere = useSignOutUserEverywhere();
  const [resettingTwoFactor, setResettingTwoFactor] = useState<UserPublic>();
  const resetTwoFactor = useResetUserTwoFactor();
  const updateUser = useUpdateUser();
  const deleteUser = useDeleteUser();

  const columns: DataTableColumn<UserPublic>[] = [
    {
      key: 'email',
      header: 'Email',
      minWidth: 200,
      render: (user) => (
        // An address breaks at no hyphen: on a narrow screen the table scrolls instead.
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {user.email}
          {user.id === ownId ? (
            <Typography component="span" variant="body2" color="text.secondary">
              {' '}
              (you)
            </Typography>
          ) : undefined}
        </Box>
      ),
    },
    { key: 'full_name', header: 'Full Name', minWidth: 140, render: (user) => user.full_name || '-' },
    {
      key: 'status',
      header: 'Status',
      render: (user) =>
        user.is_active ? (
          <Chip label="Active" color="success" size="small" />
        ) : (
          <Chip label="Inactive" color="default" size="small" variant="outlined" />
        ),
    },
    {
      key: 'role',
      header: 'Role',
      render: (user) =>
        user.is_superuser ? (
          <Chip label="Admin" color="primary" size="small" />
        ) : (
          <Chip label="User" size="small" variant="outlined" />
        ),
    },
  ];

  return (
    <TabBody>
      <TabToolbar actionLabel="Add User" onAction={() => setCreating(true)}>
        <SearchField
          label="Search users"
          placeholder="E-mail or name"
          value={search}
          onChange={(value) => {
            setSearch(value);
            paging.setPage(0);
          }}
          sx={{ minWidth: 0, width: { xs: '100%', sm: 320 } }}
        />
      </TabToolbar>
      <DataTable
        aria-label="Users"
        columns={columns}
        {...table}
        rowKey={(user) => user.id}
        loadingText="Loading users..."
        emptyText={q === '' ? 'No users found.' : `No users match "${q}".`}
        errorText="Users could not be loaded."
        actions={(user) => {
          const self = user.id === ownId;
          return (
            <>
              <RowActionButton
                title={`Edit ${user.email}`}
                label={`Edit user ${user.email}`}
                icon={<EditIcon fontSize="small" />}
                onClick={() => setEditing(user)}
              />
              <RowActionButton
                title={`Sign out ${user.email} everywhere`}
                label={`Sign out user ${user.email} everywhere`}
                icon={<LogoutIcon fontSize="small" />}
                onClick={() => setSigningOut(user)}
              />
              <RowActionButton
                title={`Reset two-factor authentication of ${user.email}`}
                label={`Reset two-factor authentication of user ${user.email}`}
                icon={<LockResetIcon fontSize="small" />}
                onClick={() => setResettingTwoFactor(user)}
                refusal={self ? twoFactorMessages.resetOwn : undefined}
              />
              <RowActionButton
                title={`Delete ${user.email}`}
                label={`Delete user ${user.email}`}
                icon={<DeleteIcon fontSize="small" />}
                onClick={() => setDeleting(user)}
                refusal={self ? SELF_PROTECTION_TEXT : undefined}
              />
            </>
          );
        }}
      />

      <FormDialog
        open={creating}
        title="Create New User"
        schema={loadUserCreateFormSchema}
        defaultValues={createDefaults}
        submitLabel="Create"
        canSubmit={(values) => values.email.trim() !== '' && values.password.trim() !== ''}
        disabledReason="Email and password are required"
        onSubmit={(values) => createUser.mutateAsync(values)}
        onClose={() => setCreating(false)}
      >
        {(form) => (
          <>
            <DialogTextField {...fieldProps(form, 'email')} label="Email" type="email" autoComplete="off" required />
            <DialogTextField {...fieldProps(form, 'full_name')} label="Full Name" autoComplete="off" />
            <DialogPasswordField
              {...passwordFieldProps(form, 'password')}
              label="Password"
              autoComplete="new-password"
              required
            />
            <DialogCheckboxField form={form} name="is_active" label="Active" />
            <DialogCheckboxField form={form} name="is_superuser" label="Admin" />
          </>
        )}
      </FormDialog>

      <FormDialog
        open={editing !== undefined}
        title="Edit User"
        schema={loadUserEditFormSchema}
        defaultValues={editFormValues(editing)}
        submitLabel="Save"
        canSubmit={(values) => values.email.trim() !== ''}
        disabledReason="Email is required"
        onSubmit={(values) => updateUser.mutateAsync({ id: editing!.id, body: values })}
        onClose={() => setEditing(undefined)}
      >
        {(form) => {
          const self = editing?.id === ownId;
          return (
            <>
              <DialogTextField {...fieldProps(form, 'email')} label="Email" type="email" autoComplete="off" required />
              <DialogTextField {...fieldProps(form, 'full_name')} label="Full Name" autoComplete="off" />
              <DialogCheckboxField form={form} name="is_active" label="Active" disabled={self} />
              <DialogCheckboxField
                form={form}
                name="is_superuser"
                label="Admin"
                disabled={self}
                helperText={self ? SELF_PROTECTION_TEXT : undefined}
              />
            </>
          );
        }}
      </FormDialog>

      <LazyRowConfirmDialog
        row={deleting}
        title="Delete User"
        loading={deleteUser.isPending}
        onConfirm={(user) => deleteUser.mutate(user.id, { onSuccess: () => setDeleting(undefined) })}
        onClose={() => setDeleting(undefined)}
      >
        Are you sure you want to delete the user &quot;{deleting?.email}&quot;? This action cannot be undone.
      </LazyRowConfirmDialog>

      <LazyRowConfirmDialog
        row={signingOut}
        title="Sign Out Everywhere"
        confirmLabel="Sign out"
        loading={signOutEverywhere.isPending}
        onConfirm={(user) => signOutEverywhere.mutate(user, { onSettled: () => setSigningOut(undefined) })}
        onClose={() => setSigningOut(undefined)}
      >
        {signingOut?.id === ownId
          ? 'Sign yourself out of every browser, this one included? You will have to log in again.'
          : `Sign "${signingOut?.email}" out of every browser? They will have to log in again; their account stays as it is.`}
      </LazyRowConfirmDialog>

      <LazyRowConfirmDialog
        row={resettingTwoFactor}
        title="Reset Two-Factor Authentication"
        confirmLabel="Reset"
        loading={resetTwoFactor.isPending}
        onConfirm={(user) => resetTwoFactor.mutate(user, { onSettled: () => setResettingTwoFactor(undefined) })}
        onClose={() => setResettingTwoFactor(undefined)}
      >
        {`Turn off two-factor authentication for "${resettingTwoFactor?.email}" and sign them out everywhere? Do this only for someone who lost both their authenticator and their recovery codes, once you know it is them. They will sign in with their password alone and are told by e-mail.`}
      </LazyRowConfirmDialog>
    </TabBody>
  );
}

function editFormValues(user: UserPublic | undefined): UserEditFormValues {
  return {
    email: user?.email ?? '',
    full_name: user?.full_name ?? '',
    is_active: user?.is_active ?? true,
    is_superuser: user?.is_superuser ?? false,
  };
}
