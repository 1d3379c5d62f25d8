import type { SsoConnectionPublic } from '@dataplatform/contract';
import { ssoMessages } from '@dataplatform/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { useQuery } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { LazyRowConfirmDialog } from '../../../components/lazy-confirm-dialog.js';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { useServerPagedList } from '../../../components/server-paged-list.js';
import { FormDialog } from '../../../components/form-dialog.js';
import {
  SSO_CONNECTIONS_PAGE_SIZE,
  ssoConnectionsQueryOptions,
  useCreateSsoConnection,
  useDeleteSsoConnection,
  useUpdateSsoConnection,
} from '../api/sso-connections.js';
import { tenantsQueryOptions } from '../api/tenants.js';
import type { SsoConnectionFormValues } from '../schemas.js';
import { preloadAdminDialogs } from './preload-dialogs.js';
import type { SsoFields as SsoFieldsType } from './sso-fields.js';
import { RowActionButton } from './row-action-button.js';
import { TabBody, TabToolbar } from './tab-toolbar.js';

// The dialogs' fields (TextField, its select's MenuItem, the checkbox) load with the dialog (decision 030).
const loadSsoFields = () => import('./sso-fields.js');
const SsoFields = lazy(() =>
  loadSsoFields().then((m) => ({ default: m.SsoFields })),
) as unknown as typeof SsoFieldsType;
const preloadSsoDialogs = () => {
  preloadAdminDialogs();
  void loadSsoFields();
};

// The form schemas (zod) load with the form, when a dialog opens (decision 030).
const loadSsoConnectionCreateFormSchema = () => import('../schemas.js').then((m) => m.SsoConnectionCreateFormSchema);
const loadSsoConnectionEditFormSchema = () => import('../schemas.js').then((m) => m.SsoConnectionEditFormSchema);

const createDefaults: SsoConnectionFormValues = {
  name: '',
  issuer: '',
  client_id: '',
  client_secret: '',
  domains: '',
  tenant_id: '',
  allow_password_recovery: false,
};

function editValues(connection: SsoConnectionPublic | undefined): SsoConnectionFormValues {
  return {
    name: connection?.name ?? '',
    issuer: connection?.issuer ?? '',
    client_id: connection?.client_id ?? '',
    // Write-only: the server never answers it; blank keeps the stored one.
    client_secret: '',
    domains: connection?.domains.join(', ') ?? '',
    tenant_id: connection?.tenant_id ?? '',
    allow_password_recovery: connection?.allow_password_recovery ?? false,
  };
}

/** Single Sign-On tab (SSO-1): OpenID Connect connections, for superusers. */
export function SsoTab() {
  const connections = useServerPagedList(SSO_CONNECTIONS_PAGE_SIZE, ssoConnectionsQueryOptions);
  // The tenant picker and the Tenant column: the first hundred tenants by name.
  const tenants = useQuery(tenantsQueryOptions({ skip: 0, limit: 100 }));
  const tenantName = (id: string | null) =>
    id === null ? 'All (global)' : (tenants.data?.data.find((tenant) => tenant.id === id)?.name ?? id);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<SsoConnectionPublic>();
  const [deleting, setDeleting] = useState<SsoConnectionPublic>();
  const create = useCreateSsoConnection();
  const update = useUpdateSsoConnection();
  const remove = useDeleteSsoConnection();

  const columns: DataTableColumn<SsoConnectionPublic>[] = [
    { key: 'name', header: 'Name', minWidth: 140, render: (connection) => connection.name },
    {
      key: 'issuer',
      header: 'Issuer',
      minWidth: 200,
      render: (connection) => <span style={{ overflowWrap: 'anywhere' }}>{connection.issuer}</span>,
    },
    { key: 'domains', header: 'Domains', minWidth: 160, render: (connection) => connection.domains.join(', ') },
    { key: 'tenant', header: 'Tenant', render: (connection) => tenantName(connection.tenant_id) },
    {
      key: 'recovery',
      header: 'Password recovery',
      render: (connection) => (connection.allow_password_recovery ? 'Allowed' : 'Not allowed'),
    },
  ];

  const tenantOptions = tenants.data?.data ?? [];

  return (
    <TabBody>
      <TabToolbar actionLabel="Add Connection" onAction={() => setCreating(true)} onPreload={preloadSsoDialogs} />
      <DataTable
        aria-label="Single sign-on connections"
        columns={columns}
        {...connections.table}
        rowKey={(connection) => connection.id}
        loadingText="Loading connections..."
        emptyText="No single sign-on connections yet."
        errorText="Connections could not be loaded."
        actions={(connection) => (
          <>
            <RowActionButton
              title={`Edit ${connection.name}`}
              label={`Edit connection ${connection.name}`}
              icon={<EditIcon fontSize="small" />}
              onClick={() => setEditing(connection)}
              onPreload={preloadSsoDialogs}
            />
            <RowActionButton
              title={`Delete ${connection.name}`}
              label={`Delete connection ${connection.name}`}
              icon={<DeleteIcon fontSize="small" />}
              onClick={() => setDeleting(connection)}
            />
          </>
        )}
      />

      <FormDialog
        open={creating}
        title="Add Single Sign-On Connection"
        schema={loadSsoConnectionCreateFormSchema}
        defaultValues={createDefaults}
        submitLabel="Create"
        canSubmit={(values) => values.name.trim() !== ''}
        disabledReason={ssoMessages.nameRequired}
        onSubmit={(values) => create.mutateAsync(values)}
        onClose={() => setCreating(false)}
      >
        {(form) => <SsoFields form={form} tenants={tenantOptions} secretRequired />}
      </FormDialog>

      <FormDialog
        open={editing !== undefined}
        title="Edit Single Sign-On Connection"
        schema={loadSsoConnectionEditFormSchema}
        defaultValues={editValues(editing)}
        submitLabel="Save"
        canSubmit={(values) => values.name.trim() !== ''}
        disabledReason={ssoMessages.nameRequired}
        onSubmit={(values) => update.mutateAsync({ id: editing!.id, body: values })}
        onClose={() => setEditing(undefined)}
      >
        {(form) => <SsoFields form={form} tenants={tenantOptions} secretRequired={false} />}
      </FormDialog>

      <LazyRowConfirmDialog
        row={deleting}
        title="Delete Connection"
        loading={remove.isPending}
        onConfirm={(connection) => remove.mutate(connection.id, { onSuccess: () => setDeleting(undefined) })}
        onClose={() => setDeleting(undefined)}
      >
        Are you sure you want to delete the connection &quot;{deleting?.name}&quot;? People of its domains will no
        longer sign in with it.
      </LazyRowConfirmDialog>
    </TabBody>
  );
}
