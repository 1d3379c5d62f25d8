import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditEntry } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FilterSelect } from '../../../components/filter-select.js';
import { lazyDialog } from '../../../components/lazy-dialog.js';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { useServerPagedList } from '../../../components/server-paged-list.js';
import { formatDateTime } from '../../../lib/format.js';
import { auditLogQueryOptions } from '../api/audit-log.js';
import { actorLabel, targetLabel } from './audit-entry-labels.js';

// An entry's dialog (MUI's Dialog and Modal) loads as the pointer or the focus nears a row (decision 030).
const AuditEntryDialog = lazyDialog(
  () => import('./audit-entry-dialog.js').then((m) => m.AuditEntryDialog),
  (props) => props.entry !== undefined,
);

const PAGE_SIZE = 10;
const ACTIONS = Object.values(AUDIT_ACTIONS).sort();
const TARGET_TYPES = Object.values(AUDIT_TARGET_TYPES).sort();

interface Actor {
  id: string;
  label: string;
}

/** The audit log (ADM-AUDIT-1, beyond the product specification): newest first, filtered by actor, target type and action. */
export function AuditLogTab() {
  const [actor, setActor] = useState<Actor>();
  const [targetType, setTargetType] = useState('');
  const [action, setAction] = useState('');
  const [opened, setOpened] = useState<AuditEntry>();
  const { paging, table } = useServerPagedList(PAGE_SIZE, (page) =>
    auditLogQueryOptions({
      ...page,
      actor_id: actor?.id,
      target_type: targetType || undefined,
      action: action || undefined,
    }),
  );
  const filtered = actor !== undefined || targetType !== '' || action !== '';

  const columns: DataTableColumn<AuditEntry>[] = [
    {
      key: 'when',
      header: 'When',
      render: (entry) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(entry.created_at)}
        </Box>
      ),
    },
    {
      key: 'actor',
      header: 'Actor',
      minWidth: 180,
      render: (entry) =>
        entry.actor_id === null ? (
          'System'
        ) : (
          <Link
            component="button"
            type="button"
            title="Show only this actor's changes"
            onClick={() => {
              setActor({ id: entry.actor_id ?? '', label: actorLabel(entry) });
              paging.setPage(0);
            }}
            sx={{ textAlign: 'left', overflowWrap: 'anywhere' }}
          >
            {actorLabel(entry)}
          </Link>
        ),
    },
    { key: 'action', header: 'Action', render: (entry) => <code>{entry.action}</code> },
    {
      key: 'target',
      header: 'Target',
      minWidth: 200,
      render: (entry) => (
        <Box component="span" sx={{ overflowWrap: 'anywhere' }} title={entry.target_id ?? undefined}>
          {targetLabel(entry)}
        </Box>
      ),
    },
  ];

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <Typography variant="h2" sx={{ fontSize: '1.5rem', flexGrow: 1 }}>
          Audit log
        </Typography>
        {actor ? (
          <Chip
            label={`Actor: ${actor.label}`}
            onDelete={() => {
              setActor(undefined);
              paging.setPage(0);
            }}
          />
        ) : undefined}
        <FilterSelect
          label="Target type"
          value={targetType}
          onChange={(value) => {
            setTargetType(value);
            paging.setPage(0);
          }}
          options={TARGET_TYPES.map((value) => ({ value, label: value }))}
        />
        <FilterSelect
          label="Action"
          value={action}
          onChange={(value) => {
            setAction(value);
            paging.setPage(0);
          }}
          options={ACTIONS.map((value) => ({ value, label: value }))}
          minWidth={210}
        />
      </Box>
      <DataTable
        aria-label="Audit log"
        columns={columns}
        {...table}
        rowKey={(entry) => String(entry.id)}
        loadingText="Loading the audit log..."
        emptyText={filtered ? 'No entries match these filters.' : 'No entries yet.'}
        errorText="Error loading the audit log. Please try again later."
        onRowClick={setOpened}
        onRowPreload={AuditEntryDialog.preload}
      />
      <AuditEntryDialog entry={opened} onClose={() => setOpened(undefined)} />
    </Box>
  );
}
