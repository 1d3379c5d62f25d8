import {
  STUDIO_EXTRACT_NAME_MAX,
  studioExtractMessages,
  type StudioAccess,
  type StudioExtract,
} from '@dataplatform/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { DataTable, type DataTableColumn } from '../../../components/data-table.js';
import { ApiError, errorText, failureText } from '../../../lib/api-error.js';
import { globalErrorText } from '../../../lib/error-handling.js';
import { formatBytes, formatDateTime } from '../../../lib/format.js';
import { getSelectedTenantId, onSelectedTenantChange } from '../../../lib/session.js';
import { accessQueryOptions, sourceTablesQueryOptions } from '../api/editor.js';
import {
  contentTypeOf,
  extractsQueryOptions,
  sourceKeys,
  sourcesQueryOptions,
  useDeleteExtract,
  useUploadExtract,
  type StudioSource,
} from '../api/sources.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';

const NAME_PATTERN = new RegExp(`^[a-z][a-z0-9_]{0,${STUDIO_EXTRACT_NAME_MAX - 1}}$`);

/** What each kind of source holds, under its name. */
const SOURCE_NOTES: Record<StudioSource['kind'], string> = {
  demo: 'Generated price-transparency data: in-network rates, hospital charges and a physician fee schedule. Every signed-in user can read it.',
  tenant: "The tenant's own PostgreSQL database, read live and read-only.",
  extract: 'The CSV and Parquet files uploaded to this tenant, each one a table.',
};

/** A table name from a file name: "Sales 2026.csv" gives "sales_2026". */
function tableNameFor(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (base === '') return '';
  return (/^[a-z]/.test(base) ? base : `t_${base}`).slice(0, STUDIO_EXTRACT_NAME_MAX);
}

/** "3 columns: region (VARCHAR), units (BIGINT), sold_on (DATE)". */
function columnsText(columns: readonly { name: string; type: string }[]): string {
  const list = columns.map((column) => `${column.name} (${column.type})`).join(', ');
  return `${columns.length} ${columns.length === 1 ? 'column' : 'columns'}: ${list}`;
}

function useSelectedTenantId(): string {
  return useSyncExternalStore(onSelectedTenantChange, getSelectedTenantId, () => '');
}

type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; fileName: string; sent: number; total: number }
  | { status: 'cancelled'; afterSending: boolean }
  | { status: 'failed'; title: string; detail: string };

/** What the form says about a failed upload, in the server's words where it gave them. */
function describeFailure(error: unknown): { title: string; detail: string; aboutName: boolean } {
  if (!(error instanceof ApiError)) return { title: 'The upload failed', detail: errorText(error), aboutName: false };
  const detail = failureText(error.body);
  switch (error.code) {
    case 'extract_too_large':
      return { title: 'The file is too large', detail, aboutName: false };
    case 'extract_invalid':
      return { title: 'The file could not be read', detail, aboutName: false };
    case 'extract_name_taken':
      return { title: 'The name is taken', detail, aboutName: true };
    case 'validation_failed':
      return { title: 'The name cannot be used', detail, aboutName: true };
    default:
      break;
  }
  if (error.status === 0)
    return { title: 'The upload stopped', detail: `${error.message} Try again.`, aboutName: false };
  if (error.status === 413) {
    return { title: 'The file is too large', detail: 'The server refused a file this large.', aboutName: false };
  }
  if (error.status === 403) {
    return {
      title: 'You may not upload files here',
      detail: 'Uploading needs the sources:write permission: ask an administrator for it.',
      aboutName: false,
    };
  }
  return { title: 'The upload failed', detail: globalErrorText(error), aboutName: false };
}

/** What is wrong with a chosen file before anything is sent, if anything. */
function fileProblem(file: File | null, maxBytes: number): string | undefined {
  if (!file) return 'Choose a file to upload.';
  if (contentTypeOf(file) === undefined) return 'Choose a CSV (.csv) or Parquet (.parquet) file.';
  if (file.size > maxBytes) {
    return `This file is ${formatBytes(file.size)}: an extract may be at most ${formatBytes(maxBytes)}.`;
  }
  if (file.size === 0) return 'This file is empty.';
  return undefined;
}

/**
 * Upload a CSV or Parquet file as a table of the tenant's extracts, with its progress and a Cancel.
 * A file over the server's limit is refused before it is sent: the server would refuse it anyway,
 * and a browser may report its early 413 only as a lost connection.
 */
function UploadForm({ maxBytes }: { maxBytes: number }) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [nameTyped, setNameTyped] = useState(false);
  const [fileError, setFileError] = useState<string>();
  const [nameError, setNameError] = useState<string>();
  const [state, setState] = useState<UploadState>({ status: 'idle' });
  const controller = useRef<AbortController | null>(null);
  /** Whether every byte has gone out: a cancel after that cannot promise the server kept nothing. */
  const sentAllRef = useRef(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const uploadButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const upload = useUploadExtract();
  const client = useQueryClient();
  // Leaving the page stops an upload still going.
  useEffect(() => () => controller.current?.abort(), []);

  const choose = (picked: File | null) => {
    setFile(picked);
    setFileError(picked ? fileProblem(picked, maxBytes) : undefined);
    if (picked && !nameTyped) {
      setName(tableNameFor(picked.name));
      setNameError(undefined);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (state.status === 'uploading') return;
    const contentType = file ? contentTypeOf(file) : undefined;
    const problem = fileProblem(file, maxBytes);
    const nameProblem = NAME_PATTERN.test(name) ? undefined : studioExtractMessages.nameInvalid;
    setFileError(problem);
    setNameError(nameProblem);
    if (!file || contentType === undefined || problem !== undefined) {
      fileInput.current?.focus();
      return;
    }
    if (nameProblem) {
      nameInput.current?.focus();
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    sentAllRef.current = false;
    setState({ status: 'uploading', fileName: file.name, sent: 0, total: file.size });
    upload.mutate(
      {
        file,
        name,
        contentType,
        signal: abort.signal,
        onProgress: (sent, total) => {
          sentAllRef.current = total > 0 && sent >= total;
          setState({ status: 'uploading', fileName: file.name, sent, total });
        },
      },
      {
        onSuccess: () => {
          setState({ status: 'idle' });
          setFile(null);
          setName('');
          setNameTyped(false);
          if (fileInput.current) fileInput.current.value = '';
        },
        onError: (error) => {
          if (error instanceof ApiError && error.isAborted) {
            // Once the whole file is sent the server goes on without us: the list shows whether it kept it.
            const afterSending = sentAllRef.current;
            if (afterSending) void client.invalidateQueries({ queryKey: sourceKeys.all });
            setState({ status: 'cancelled', afterSending });
            return;
          }
          const failure = describeFailure(error);
          setState({ status: 'failed', title: failure.title, detail: failure.detail });
          if (failure.aboutName) setNameError(failure.detail);
        },
        onSettled: () => {
          controller.current = null;
        },
      },
    );
  };

  const uploading = state.status === 'uploading';
  // The keyboard follows the buttons: Upload gives way to Cancel while sending, and back after.
  const wasUploading = useRef(false);
  useEffect(() => {
    if (uploading && !wasUploading.current) cancelButton.current?.focus();
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (!uploading && wasUploading.current && focusLost) uploadButton.current?.focus();
    wasUploading.current = uploading;
  }, [uploading]);
  const percent = uploading && state.total > 0 ? Math.min(100, Math.round((state.sent / state.total) * 100)) : 0;
  const sentAll = uploading && state.total > 0 && state.sent >= state.total;

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      aria-labelledby={headingId}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <Typography component="h3" variant="subtitle1" id={headingId} sx={{ fontWeight: 600 }}>
        Upload a file
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <TextField
          type="file"
          label="CSV or Parquet file"
          required
          size="small"
          disabled={uploading}
          inputRef={fileInput}
          error={fileError !== undefined}
          helperText={fileError ?? `A .csv or .parquet file of at most ${formatBytes(maxBytes)}.`}
          onChange={(event) => choose((event.target as HTMLInputElement).files?.[0] ?? null)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { accept: '.csv,.parquet,text/csv' } }}
          sx={{ flex: '1 1 260px', minWidth: 0 }}
        />
        <TextField
          label="Table name"
          required
          size="small"
          disabled={uploading}
          value={name}
          inputRef={nameInput}
          error={nameError !== undefined}
          helperText={nameError ?? "Lowercase letters, digits and underscores: the table's name in SQL."}
          onChange={(event) => {
            setName(event.target.value);
            setNameTyped(event.target.value !== '');
            setNameError(undefined);
          }}
          slotProps={{ htmlInput: { autoCapitalize: 'none', autoCorrect: 'off', spellCheck: false } }}
          sx={{ flex: '1 1 220px', minWidth: 0 }}
        />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button
          ref={uploadButton}
          type="submit"
          variant="contained"
          startIcon={<UploadFileIcon />}
          disabled={uploading}
        >
          Upload
        </Button>
        {uploading ? (
          <Button ref={cancelButton} variant="outlined" onClick={() => controller.current?.abort()}>
            Cancel upload
          </Button>
        ) : undefined}
      </Box>
      {uploading ? (
        <Box>
          <LinearProgress
            variant={sentAll ? 'indeterminate' : 'determinate'}
            value={percent}
            aria-label={`Uploading ${state.fileName}`}
            {...(sentAll ? {} : { 'aria-valuetext': `${percent}%` })}
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {sentAll
              ? 'The file is sent; the server is reading it.'
              : `${formatBytes(state.sent)} of ${formatBytes(state.total)} sent (${percent}%)`}
          </Typography>
        </Box>
      ) : undefined}
      {state.status === 'cancelled' ? (
        <Alert severity="info" role="status">
          {state.afterSending
            ? 'Upload cancelled after the whole file was sent: the server may still add it. The list below shows whether it did.'
            : 'Upload cancelled. Nothing was kept.'}
        </Alert>
      ) : undefined}
      {state.status === 'failed' ? (
        <Alert severity="error" role="alert">
          <AlertTitle>{state.title}</AlertTitle>
          {state.detail}
        </Alert>
      ) : undefined}
    </Box>
  );
}

/** The tenant's extracts, each a table, with Delete for holders of sources:write. */
function ExtractList({ canWrite }: { canWrite: boolean }) {
  const extracts = useQuery(extractsQueryOptions());
  const remove = useDeleteExtract();
  const [confirm, setConfirm] = useState<{ open: boolean; extract?: StudioExtract }>({ open: false });

  const columns: readonly DataTableColumn<StudioExtract>[] = [
    {
      key: 'table',
      header: 'Table',
      render: (extract) => (
        <>
          <Typography component="span" sx={{ fontWeight: 600, fontFamily: 'monospace' }}>
            {extract.name}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '60ch', overflowWrap: 'anywhere' }}>
            {columnsText(extract.tables[0]?.columns ?? [])}
          </Typography>
        </>
      ),
    },
    {
      key: 'rows',
      header: 'Rows',
      align: 'right',
      render: (extract) => extract.rows.toLocaleString('en-US'),
    },
    {
      key: 'file',
      header: 'File',
      wideOnly: true,
      render: (extract) => `${extract.format === 'csv' ? 'CSV' : 'Parquet'}, ${formatBytes(extract.bytes)}`,
    },
    {
      key: 'uploaded',
      header: 'Uploaded',
      minWidth: 150,
      wideOnly: true,
      render: (extract) => formatDateTime(extract.created_at),
    },
  ];

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'stretch' }}>
      <DataTable
        aria-label="Extracts"
        columns={columns}
        rows={extracts.data?.data}
        rowKey={(extract) => extract.id}
        loading={extracts.isPending}
        error={extracts.isError}
        onRetry={() => void extracts.refetch()}
        loadingText="Loading the extracts..."
        emptyText="No files uploaded yet."
        errorText="The extracts could not be loaded."
        {...(canWrite
          ? {
              actions: (extract: StudioExtract) => (
                <Button
                  size="small"
                  color="error"
                  aria-label={`Delete ${extract.name}`}
                  onClick={() => setConfirm({ open: true, extract })}
                  // The word on wider screens; on a phone the icon alone (the name is in the label).
                  sx={{ minWidth: 0 }}
                >
                  <DeleteIcon fontSize="small" />
                  <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' }, ml: 1 }}>
                    Delete
                  </Box>
                </Button>
              ),
            }
          : {})}
      />
      {extracts.data?.count === 0 ? (
        <Typography variant="body2" color="text.secondary">
          New to extracts?{' '}
          <Link component={RouterLink} to="/learn/first-extract">
            The first lesson in Learn
          </Link>{' '}
          uploads a sample file with you and checks it worked.
        </Typography>
      ) : undefined}
      <ConfirmDialog
        open={confirm.open}
        title={`Delete “${confirm.extract?.name ?? ''}”?`}
        loading={remove.isPending}
        onClose={() => setConfirm((previous) => ({ ...previous, open: false }))}
        onConfirm={() => {
          if (!confirm.extract) return;
          remove.mutate(confirm.extract, {
            onSettled: () => setConfirm((previous) => ({ ...previous, open: false })),
          });
        }}
      >
        The table {confirm.extract?.name} and its file are removed. Reports that read this table fail until a file is
        uploaded under its name again. This cannot be undone.
      </ConfirmDialog>
    </Box>
  );
}

/** A source's tables and columns, asked for when opened (the demo data is generated on first use). */
function SourceTables({ source }: { source: StudioSource }) {
  const tables = useQuery(sourceTablesQueryOptions(source.id));
  if (tables.isPending) {
    return <LoadingLine sx={{ color: 'text.secondary' }}>Loading the tables...</LoadingLine>;
  }
  if (tables.isError) {
    return (
      <LoadFailure onRetry={() => void tables.refetch()} retrying={tables.isFetching}>
        The tables could not be loaded.
      </LoadFailure>
    );
  }
  if (tables.data.data.length === 0) return <Typography color="text.secondary">This source has no tables.</Typography>;
  return (
    <List dense disablePadding aria-label={`Tables of ${source.name}`}>
      {tables.data.data.map((table) => (
        <ListItem key={table.name} disableGutters>
          <ListItemText
            primary={table.name}
            secondary={columnsText(table.columns)}
            slotProps={{
              primary: { sx: { fontWeight: 600, fontFamily: 'monospace' } },
              secondary: { sx: { overflowWrap: 'anywhere' } },
            }}
          />
        </ListItem>
      ))}
    </List>
  );
}

function SourceSection({ source, access }: { source: StudioSource; access: StudioAccess | undefined }) {
  // Unknown (still loading, or failed) offers nothing and claims nothing: the server checks anyway.
  const canWrite = access?.sources_write;
  const headingId = useId();
  const summaryId = useId();
  const detailsId = useId();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}
    >
      <Box>
        <Typography component="h2" variant="h6" id={headingId}>
          {source.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '75ch' }}>
          {SOURCE_NOTES[source.kind]} A report reads it with <code>source: {source.id}</code>.
        </Typography>
      </Box>
      {source.kind === 'extract' ? (
        <>
          {access?.sources_write === true ? <UploadForm maxBytes={access.extract_max_bytes} /> : undefined}
          {canWrite === false ? (
            <Alert severity="info">
              You can see these files. Uploading and deleting them needs the sources:write permission: ask an
              administrator for it.
            </Alert>
          ) : undefined}
          <ExtractList canWrite={canWrite === true} />
        </>
      ) : (
        <Accordion variant="outlined" disableGutters slotProps={{ transition: { unmountOnExit: true } }}>
          <AccordionSummary expandIcon={<ExpandMoreIcon />} id={summaryId} aria-controls={detailsId}>
            Tables and columns
          </AccordionSummary>
          <AccordionDetails id={detailsId}>
            <SourceTables source={source} />
          </AccordionDetails>
        </Accordion>
      )}
    </Paper>
  );
}

/**
 * `/studio/sources` (STUDIO-SOURCE-7): the selected tenant's sources with their tables; uploading
 * and deleting extracts for holders of `sources:write` (the server decides; the screen follows).
 */
export function SourcesPage() {
  const tenantId = useSelectedTenantId();
  const sources = useQuery(sourcesQueryOptions());
  const access = useQuery(accessQueryOptions());

  let body;
  if (sources.isPending) {
    body = <LoadingLine sx={{ py: 4, color: 'text.secondary' }}>Loading the sources...</LoadingLine>;
  } else if (sources.isError) {
    body = (
      <LoadFailure sx={{ my: 4 }} onRetry={() => void sources.refetch()} retrying={sources.isFetching}>
        The sources could not be loaded.
      </LoadFailure>
    );
  } else if (sources.data.data.length === 0) {
    body = <Typography color="text.secondary">There are no sources to show.</Typography>;
  } else {
    body = sources.data.data.map((source) => <SourceSection key={source.id} source={source} access={access.data} />);
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
      <Box>
        <Breadcrumbs aria-label="Breadcrumb" sx={{ mb: 1 }}>
          <Link component={RouterLink} to="/studio/reports">
            Studio
          </Link>
          <Typography color="text.primary" aria-current="page">
            Sources
          </Typography>
        </Breadcrumbs>
        <Typography component="h1" variant="h3" sx={{ fontWeight: 700 }}>
          Sources
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, maxWidth: '70ch' }}>
          Where reports read their data: every source with its tables and columns.
        </Typography>
      </Box>
      {tenantId === '' ? (
        <Alert severity="info">
          Only the demo data is shown. Choose one of your tenants with the tenant switcher in the top bar to see its
          sources and upload files to it.
        </Alert>
      ) : undefined}
      {body}
    </Box>
  );
}
