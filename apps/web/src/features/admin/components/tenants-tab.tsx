import type { TenantConnectionCheck, TenantPublic } from '@dataplatform/contract';
import { tenantMessages } from '@dataplatform/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import GroupIcon from '@mui/icons-material/Group';
import NetworkCheckIcon from '@mui/icons-material/NetworkCheck';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import { DialogCheckboxField, DialogTextField } from '../../../components/dialog-fields.js';
import { useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { LazyRowConfirmDialog } from '../../../components/lazy-confirm-dialog.js';
import { lazyDialog } from '../../../components/lazy-dialog.js';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { useServerPagedList } from '../../../components/server-paged-list.js';
import { FormDialog } from '../../../components/form-dialog.js';
import { fieldProps } from '../../../components/form-field.js';
import {
  TENANTS_PAGE_SIZE,
  tenantsQueryOptions,
  useCheckTenantConnection,
  useCreateTenant,
  useDeleteTenant,
  useUpdateTenant,
} from '../api/tenants.js';
import type { TenantFormOutput, TenantFormValues } from '../schemas.js';
import { RowActionButton } from './row-action-button.js';
import { TabBody, TabToolbar } from './tab-toolbar.js';
import { LazyTooltip } from '../../../components/lazy-tooltip.js';

// The members dialog (the transfer list, its user search) loads on its first opening (decision 030).
const TenantMembersDialog = lazyDialog(
  () => import('./tenant-members-dialog.js').then((m) => m.TenantMembersDialog),
  (props) => props.tenant !== undefined,
);
// The form schemas (zod) load with the form, when a dialog opens (decision 030).
const loadTenantFormSchema = () => import('../schemas.js').then((m) => m.TenantFormSchema);

const createDefaults: TenantFormValues = { name: '', description: '', dburl: '', active: true };

function editValues(tenant: TenantPublic | undefined): TenantFormValues {
  return {
    name: tenant?.name ?? '',
    description: tenant?.description ?? '',
    // The masked URL: sent back unchanged, the server keeps the stored password.
    dburl: tenant?.dburl ?? '',
    active: tenant?.status === 'active',
  };
}

/** Green when active, otherwise red; "inactive" when the status is missing (ADM-TENANTS-1). */
function StatusChip({ status }: { status: string | null | undefined }) {
  const label = status || 'inactive';
  return <Chip label={label} size="small" color={label === 'active' ? 'success' : 'error'} />;
}

function connectionText(tenant: TenantPublic, result: TenantConnectionCheck): string {
  return result.ok
    ? `Connected to the database of "${tenant.name}": PostgreSQL ${result.server_version}, ${Math.round(result.latency_ms)} ms.`
    : `Could not connect to the database of "${tenant.name}": ${result.detail}`;
}

/** Tenants tab (ADM-TENANTS-1 to ADM-TENANTS-5), plus a connection check and the tenant's members. */
export function TenantsTab() {
  const tenants = useServerPagedList(TENANTS_PAGE_SIZE, tenantsQueryOptions);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TenantPublic>();
  const [deleting, setDeleting] = useState<TenantPublic>();
  const [members, setMembers] = useState<TenantPublic>();
  const [checked, setChecked] = useState<{ tenant: TenantPublic; result: TenantConnectionCheck }>();
  const createTenant = useCreateTenant();
  const updateTenant = useUpdateTenant();
  const deleteTenant = useDeleteTenant();
  const check = useCheckTenantConnection();

  const columns: DataTableColumn<TenantPublic>[] = [
    { key: 'name', header: 'Name', minWidth: 140, render: (tenant) => tenant.name },
    { key: 'description', header: 'Description', minWidth: 180, render: (tenant) => tenant.description || '-' },
    { key: 'status', header: 'Status', render: (tenant) => <StatusChip status={tenant.status} /> },
    {
      key: 'dburl',
      header: 'Database URL',
      minWidth: 220,
      render: (tenant) => <span style={{ overflowWrap: 'anywhere' }}>{tenant.dburl || '-'}</span>,
    },
  ];

  const runCheck = (tenant: TenantPublic) => {
    setChecked(undefined);
    check.mutate(tenant.id, { onSuccess: (result) => setChecked({ tenant, result }) });
  };

  return (
    <TabBody>
      <TabToolbar actionLabel="Add Tenant" onAction={() => setCreating(true)} />
      {check.isPending ? (
        <Alert severity="info" icon={<CircularProgress size={18} aria-hidden="true" />} role="status">
          Checking the connection...
        </Alert>
      ) : checked ? (
        <Alert severity={checked.result.ok ? 'success' : 'error'} role="status" onClose={() => setChecked(undefined)}>
          {connectionText(checked.tenant, checked.result)}
        </Alert>
      ) : undefined}
      <DataTable
        aria-label="Tenants"
        columns={columns}
        {...tenants.table}
        rowKey={(tenant) => tenant.id}
        loadingText="Loading tenants..."
        emptyText="No tenants yet."
        errorText="Tenants could not be loaded."
        actions={(tenant) => (
          <>
            <LazyTooltip title={tenant.dburl ? 'Check connection' : tenantMessages.noDatabase} describeChild>
              <span>
                <IconButton
                  aria-label={`Check connection of tenant ${tenant.name}`}
                  onClick={() => runCheck(tenant)}
                  disabled={!tenant.dburl || check.isPending}
                >
                  <NetworkCheckIcon fontSize="small" />
                </IconButton>
              </span>
            </LazyTooltip>
            <RowActionButton
              title="Members"
              label={`Members of tenant ${tenant.name}`}
              icon={<GroupIcon fontSize="small" />}
              onClick={() => setMembers(tenant)}
              onPreload={TenantMembersDialog.preload}
            />
            <RowActionButton
              title={`Edit ${tenant.name}`}
              label={`Edit tenant ${tenant.name}`}
              icon={<EditIcon fontSize="small" />}
              onClick={() => setEditing(tenant)}
            />
            <RowActionButton
              title={`Delete ${tenant.name}`}
              label={`Delete tenant ${tenant.name}`}
              icon={<DeleteIcon fontSize="small" />}
              onClick={() => setDeleting(tenant)}
            />
          </>
        )}
      />

      <FormDialog
        open={creating}
        title="Create New Tenant"
        schema={loadTenantFormSchema}
        defaultValues={createDefaults}
        submitLabel="Create"
        canSubmit={(values) => values.name.trim() !== ''}
        disabledReason={tenantMessages.nameRequired}
        onSubmit={(values) => createTenant.mutateAsync(values)}
        onClose={() => setCreating(false)}
      >
        {(form) => <TenantFields form={form} />}
      </FormDialog>

      <FormDialog
        open={editing !== undefined}
        title="Edit Tenant"
        schema={loadTenantFormSchema}
        defaultValues={editValues(editing)}
        submitLabel="Save"
        canSubmit={(values) => values.name.trim() !== ''}
        disabledReason={tenantMessages.nameRequired}
        onSubmit={(values) => updateTenant.mutateAsync({ id: editing!.id, body: values })}
        onClose={() => setEditing(undefined)}
      >
        {(form) => <TenantFields form={form} />}
      </FormDialog>

      <LazyRowConfirmDialog
        row={deleting}
        title="Delete Tenant"
        loading={deleteTenant.isPending}
        onConfirm={(tenant) => deleteTenant.mutate(tenant.id, { onSuccess: () => setDeleting(undefined) })}
        onClose={() => setDeleting(undefined)}
      >
        Are you sure you want to delete the tenant &quot;{deleting?.name}&quot;? This action cannot be undone.
      </LazyRowConfirmDialog>

      <TenantMembersDialog tenant={members} onClose={() => setMembers(undefined)} />
    </TabBody>
  );
}

type TenantForm = UseFormReturn<TenantFormValues, unknown, TenantFormOutput>;

function TenantFields({ form }: { form: TenantForm }) {
  return (
    <>
      <DialogTextField {...fieldProps(form, 'name')} label="Name" required autoComplete="off" />
      <DialogTextField {...fieldProps(form, 'description')} label="Description" multiline minRows={2} />
      <DialogTextField
        {...fieldProps(form, 'dburl')}
        label="Database URL"
        placeholder="postgresql://user:password@host:5432/database"
        autoComplete="off"
        spellCheck={false}
      />
      <DialogCheckboxField form={form} name="active" label="Active" />
    </>
  );
}
