import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditEntry } from '@dataplatform/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FilterSelect } from '../../../components/filter-select.js';
import {
  DataTable,
  listQueryProps,
  useServerPage,
  useServerPagination,
  type DataTableColumn,
} from '../../../components/data-table.js';
import { formatDateTime } from '../../../lib/format.js';
import { auditLogQueryOptions } from '../api/audit-log.js';

const PAGE_SIZE = 10;
const ACTIONS = Object.values(AUDIT_ACTIONS).sort();
const TARGET_TYPES = Object.values(AUDIT_TARGET_TYPES).sort();

interface Actor {
  id: string;
  label: string;
}

function actorLabel(entry: AuditEntry): string {
  if (entry.actor_id === null) return 'System';
  return entry.actor_email ?? entry.actor_id;
}

/** The record's own name (an e-mail, a role or plan name) from its values, when it has one. */
function targetName(entry: AuditEntry): string | undefined {
  for (const values of [entry.after, entry.before]) {
    for (const field of ['email', 'name']) {
      const value = values?.[field];
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return undefined;
}

function targetLabel(entry: AuditEntry): string {
  const name = targetName(entry);
  if (entry.target_id === null) return entry.target_type;
  return name === undefined ? `${entry.target_type} ${entry.target_id}` : `${entry.target_type} ${name}`;
}

function show(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The audit log (ADM-AUDIT-1, beyond the product specification): newest first, filtered by actor, target type and action. */
export function AuditLogTab() {
  const [actor, setActor] = useState<Actor>();
  const [targetType, setTargetType] = useState('');
  const [action, setAction] = useState('');
  const paging = useServerPage(PAGE_SIZE);
  const [opened, setOpened] = useState<AuditEntry>();
  const query = useQuery(
    auditLogQueryOptions({
      skip: paging.skip,
      limit: paging.limit,
      actor_id: actor?.id,
      target_type: targetType || undefined,
      action: action || undefined,
    }),
  );
  const pagination = useServerPagination(paging, query.data?.count);
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
        {...listQueryProps(query)}
        rowKey={(entry) => String(entry.id)}
        loadingText="Loading the audit log..."
        emptyText={filtered ? 'No entries match these filters.' : 'No entries yet.'}
        errorText="Error loading the audit log. Please try again later."
        onRowClick={setOpened}
        pagination={pagination}
      />
      <AuditEntryDialog entry={opened} onClose={() => setOpened(undefined)} />
    </Box>
  );
}

/** Who did what to which record and when, with the values before and after side by side. */
function AuditEntryDialog({ entry, onClose }: { entry: AuditEntry | undefined; onClose: () => void }) {
  const titleId = useId();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const keys = entry ? [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])] : [];
  return (
    <Dialog
      open={entry !== undefined}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      fullScreen={fullScreen}
    >
      {entry ? (
        <>
          <DialogTitle id={titleId}>
            <code>{entry.action}</code>
          </DialogTitle>
          {/* Focusable, so a keyboard can scroll a long list of values. */}
          <DialogContent tabIndex={0}>
            <Typography variant="body2" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
              {actorLabel(entry)} · {targetLabel(entry)}
              {entry.target_id !== null && targetName(entry) !== undefined ? ` (${entry.target_id})` : ''} ·{' '}
              {formatDateTime(entry.created_at)}
              {entry.ip ? ` · from ${entry.ip}` : ''}
            </Typography>
            {keys.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                No values were recorded for this action.
              </Typography>
            ) : (
              <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0}>
                <Table size="small" aria-label="Values before and after">
                  <TableHead>
                    <TableRow>
                      <TableCell sx={{ fontWeight: 600 }}>Field</TableCell>
                      <TableCell sx={{ fontWeight: 600 }}>Before</TableCell>
                      <TableCell sx={{ fontWeight: 600 }}>After</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {keys.map((key) => {
                      const before = entry.before === null ? undefined : entry.before[key];
                      const after = entry.after === null ? undefined : entry.after[key];
                      // On a create or a delete everything is new or gone: only an update has changes.
                      const changed = entry.before !== null && entry.after !== null && show(before) !== show(after);
                      return (
                        <TableRow key={key} selected={changed}>
                          <TableCell component="th" scope="row">
                            {key}
                            {changed ? (
                              <Box component="span" sx={{ ml: 1, color: 'text.secondary' }}>
                                (changed)
                              </Box>
                            ) : undefined}
                          </TableCell>
                          <TableCell sx={{ overflowWrap: 'anywhere', fontFamily: 'monospace', minWidth: 120 }}>
                            {entry.before === null ? '—' : show(before)}
                          </TableCell>
                          <TableCell sx={{ overflowWrap: 'anywhere', fontFamily: 'monospace', minWidth: 120 }}>
                            {entry.after === null ? '—' : show(after)}
                          </TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </>
      ) : undefined}
    </Dialog>
  );
}
