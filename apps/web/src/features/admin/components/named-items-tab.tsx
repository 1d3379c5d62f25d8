import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import Chip from '@mui/material/Chip';
import { DialogTextField } from '../../../components/dialog-fields.js';
import { useState } from 'react';
import { LazyRowConfirmDialog } from '../../../components/lazy-confirm-dialog.js';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { FormDialog, type SchemaSource } from '../../../components/form-dialog.js';
import { fieldProps } from '../../../components/form-field.js';
import { RowActionButton } from './row-action-button.js';
import { NAMED_ITEMS_PAGE_SIZE, TabBody, TabToolbar } from './tab-toolbar.js';

export interface NamedItem {
  id: string;
  name: string;
  description: string | null;
}

interface NamedItemFormValues {
  name: string;
  description: string;
}

interface NamedItemInput {
  name: string;
  description: string | null;
}

export interface NamedItemsTabProps<TItem extends NamedItem> {
  /** "Role" or "Permission": the buttons, titles and messages are built from it (ADM-ROLES-1, ADM-PERMS-1). */
  noun: string;
  rows: readonly TItem[] | undefined;
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  loadingText: string;
  emptyText: string;
  errorText: string;
  /** The form's schema, or its loader (it then loads with the form). */
  schema: SchemaSource<NamedItemInput, NamedItemFormValues>;
  /** "Role name is required" */
  nameRequiredText: string;
  onCreate: (input: NamedItemInput) => Promise<unknown>;
  onUpdate: (item: TItem, input: NamedItemInput) => Promise<unknown>;
  onDelete: (item: TItem, done: () => void) => void;
  deleting: boolean;
  /** A built-in item is marked and cannot be renamed or deleted (its description stays editable). */
  isBuiltIn?: (item: TItem) => boolean;
  builtInText?: string;
}

/** Roles and Permissions tabs: Name, Description, Actions; create, edit and delete dialogs. */
export function NamedItemsTab<TItem extends NamedItem>({
  noun,
  rows,
  loading,
  error,
  onRetry,
  loadingText,
  emptyText,
  errorText,
  schema,
  nameRequiredText,
  onCreate,
  onUpdate,
  onDelete,
  deleting,
  isBuiltIn = () => false,
  builtInText,
}: NamedItemsTabProps<TItem>) {
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<TItem>();
  const [removing, setRemoving] = useState<TItem>();
  const lower = noun.toLowerCase();

  const columns: DataTableColumn<TItem>[] = [
    {
      key: 'name',
      header: 'Name',
      minWidth: 160,
      render: (item) => (
        <>
          {item.name}
          {isBuiltIn(item) ? (
            <Chip label="Built-in" size="small" variant="outlined" sx={{ ml: 1 }} title={builtInText} />
          ) : undefined}
        </>
      ),
    },
    { key: 'description', header: 'Description', minWidth: 200, render: (item) => item.description || '-' },
  ];

  const nameFilled = (values: NamedItemFormValues) => values.name.trim() !== '';
  const editingBuiltIn = editing !== undefined && isBuiltIn(editing);

  return (
    <TabBody>
      <TabToolbar actionLabel={`Add ${noun}`} onAction={() => setCreating(true)} />
      <DataTable
        aria-label={`${noun}s`}
        columns={columns}
        rows={rows}
        rowKey={(item) => item.id}
        loading={loading}
        error={error}
        onRetry={onRetry}
        loadingText={loadingText}
        emptyText={emptyText}
        errorText={errorText}
        pagination={{ mode: 'client', pageSize: NAMED_ITEMS_PAGE_SIZE }}
        actions={(item) => {
          const builtIn = isBuiltIn(item);
          return (
            <>
              <RowActionButton
                title={`Edit ${item.name}`}
                label={`Edit ${lower} ${item.name}`}
                icon={<EditIcon fontSize="small" />}
                onClick={() => setEditing(item)}
              />
              <RowActionButton
                title={`Delete ${item.name}`}
                label={`Delete ${lower} ${item.name}`}
                icon={<DeleteIcon fontSize="small" />}
                onClick={() => setRemoving(item)}
                refusal={builtIn ? (builtInText ?? '') : undefined}
              />
            </>
          );
        }}
      />

      <FormDialog
        open={creating}
        title={`Create New ${noun}`}
        schema={schema}
        defaultValues={{ name: '', description: '' }}
        submitLabel="Create"
        canSubmit={nameFilled}
        disabledReason={nameRequiredText}
        onSubmit={onCreate}
        onClose={() => setCreating(false)}
      >
        {(form) => (
          <>
            <DialogTextField {...fieldProps(form, 'name')} label="Name" required autoComplete="off" />
            <DialogTextField {...fieldProps(form, 'description')} label="Description" multiline minRows={2} />
          </>
        )}
      </FormDialog>

      <FormDialog
        open={editing !== undefined}
        title={`Edit ${noun}`}
        schema={schema}
        defaultValues={{ name: editing?.name ?? '', description: editing?.description ?? '' }}
        submitLabel="Save"
        canSubmit={nameFilled}
        disabledReason={nameRequiredText}
        onSubmit={(input) =>
          // A built-in keeps its name: only the description is sent.
          onUpdate(editing!, editingBuiltIn ? { name: editing.name, description: input.description } : input)
        }
        onClose={() => setEditing(undefined)}
      >
        {(form) => (
          <>
            <DialogTextField
              {...fieldProps(form, 'name')}
              label="Name"
              required
              autoComplete="off"
              disabled={editingBuiltIn}
              helperText={editingBuiltIn ? builtInText : fieldProps(form, 'name').helperText}
            />
            <DialogTextField {...fieldProps(form, 'description')} label="Description" multiline minRows={2} />
          </>
        )}
      </FormDialog>

      <LazyRowConfirmDialog
        row={removing}
        title={`Delete ${noun}`}
        loading={deleting}
        onConfirm={(item) => onDelete(item, () => setRemoving(undefined))}
        onClose={() => setRemoving(undefined)}
      >
        Are you sure you want to delete the {lower} &quot;{removing?.name}&quot;? This action cannot be undone.
      </LazyRowConfirmDialog>
    </TabBody>
  );
}
