import type { ReportPublic } from '@dataplatform/contract';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Link as RouterLink, useBlocker, useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { ReportLoadFailure } from '../components/report-load-failure.js';
import { ApiError, failureText } from '../../../lib/api-error.js';
import { globalErrorText } from '../../../lib/error-handling.js';
import { formatDateTime } from '../../../lib/format.js';
import { showToast } from '../../../lib/toast-store.js';
import { useSettledValue } from '../../../lib/use-settled-value.js';
import {
  accessQueryOptions,
  fetchLatest,
  sourceTablesQueryOptions,
  useDeleteReport,
  useSaveReport,
} from '../api/editor.js';
import { reportQueryOptions } from '../api/reports.js';
import { reportPath } from '../components/report-list.js';
import { checkDefinition, serverProblems, STARTER_DEFINITION, type EditorProblem } from './definition-problems.js';
import type { ParamValues } from '../report-view.js';
import { AgentPanel } from './agent-panel.js';
import { EditorPreview } from './editor-preview.js';
import { SourceBrowser } from './source-browser.js';
import { DiffDialog, MINE, VersionHistory } from './version-history.js';
import type { YamlEditorHandle } from './yaml-editor.js';

// CodeMirror comes in its own chunk: the page's frame and its states show while it loads.
const YamlEditor = lazy(() => import('./yaml-editor.js'));

/** How long typing must pause before the text is checked and previewed. */
export const CHECK_DELAY_MS = 400;

/**
 * The server's account of a conflict without its advice (the page offers its own ways out), its
 * time as the app writes times: "You edited version 2, but version 3 was saved by … at …".
 */
function conflictText(detail: string): string {
  return detail
    .replace(/:\s*reload the report.*$/i, '')
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, (iso) => formatDateTime(iso));
}

/** The saved report the editor's text was taken from (a new report has none yet). */
interface Baseline {
  report: ReportPublic;
  text: string;
}

type PanelTab = 'preview' | 'tables' | 'history' | 'agent';

/** The editor of one report (or a new one): text, problems, preview, tables, history, save. */
function EditorWorkspace({ initial }: { initial: ReportPublic | undefined }) {
  const navigate = useNavigate();
  const ids = { problems: useId(), panel: useId(), tabs: useId() };
  const editor = useRef<YamlEditorHandle>(null);
  const [baseline, setBaseline] = useState<Baseline | undefined>(
    initial ? { report: initial, text: initial.definition } : undefined,
  );
  const [text, setText] = useState(initial?.definition ?? STARTER_DEFINITION);
  const [fromServer, setFromServer] = useState<{ text: string; problems: EditorProblem[] } | undefined>(undefined);
  const [conflict, setConflict] = useState<{ message: string } | undefined>(undefined);
  const [latest, setLatest] = useState<ReportPublic | undefined>(undefined);
  const [comparing, setComparing] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [resolving, setResolving] = useState(false);
  const [tab, setTab] = useState<PanelTab>('preview');
  const [previewValues, setPreviewValues] = useState<ParamValues>({});
  // The agent's answer last accepted into the text: a save names it ("drafted with the agent").
  const [agentMessageId, setAgentMessageId] = useState<string | undefined>(undefined);
  const save = useSaveReport();
  const remove = useDeleteReport();

  const settled = useSettledValue(text, CHECK_DELAY_MS);
  const check = useMemo(() => checkDefinition(settled), [settled]);
  // The preview keeps the last text without problems while the current one has some.
  const [good, setGood] = useState(() => {
    const first = checkDefinition(text);
    return first.ok ? { text, definition: first.definition } : undefined;
  });
  if (check.ok && good?.text !== settled) setGood({ text: settled, definition: check.definition });

  const problems: EditorProblem[] = fromServer?.text === text ? fromServer.problems : check.problems;
  const dirty = text !== (baseline?.text ?? STARTER_DEFINITION) || baseline === undefined;
  const source = good?.definition.source;
  const tables = useQuery({ ...sourceTablesQueryOptions(source ?? ''), enabled: source !== undefined });
  const names = useMemo(
    () =>
      (tables.data?.data ?? []).flatMap((table) => [
        { label: table.name, type: 'type', detail: 'table' },
        ...table.columns.map((column) => ({
          label: column.name,
          type: 'variable',
          detail: `${table.name} · ${column.type.toLowerCase()}`,
        })),
      ]),
    [tables.data],
  );

  // Leaving for another page of the app with unsaved changes asks first (a link, Back, the menus);
  // the editor's own moves after a save or a delete do not.
  const leavingOnPurpose = useRef(false);
  const leaveGuard = useBlocker(({ currentLocation, nextLocation }) => {
    if (leavingOnPurpose.current) {
      leavingOnPurpose.current = false;
      return false;
    }
    return dirty && currentLocation.pathname !== nextLocation.pathname;
  });
  const leaveOnPurpose = (to: string, options?: { replace: boolean }) => {
    leavingOnPurpose.current = true;
    void navigate(to, options);
  };

  // Closing the tab or reloading with unsaved changes asks first (the browser's own question).
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const submit = (over?: ReportPublic) => {
    const now = checkDefinition(text);
    if (!now.ok) {
      showToast(
        `The text has ${now.problems.length === 1 ? 'a problem' : `${now.problems.length} problems`}: fix ${now.problems.length === 1 ? 'it' : 'them'} before saving.`,
        'error',
      );
      return;
    }
    const against = over ?? baseline?.report;
    const written = text;
    save.mutate(
      {
        definition: written,
        agentMessageId,
        ...(against ? { report: { id: against.id, version: against.version } } : {}),
      },
      {
        onSuccess: (saved) => {
          setBaseline({ report: saved, text: written });
          setAgentMessageId(undefined);
          setConflict(undefined);
          setLatest(undefined);
          setFromServer(undefined);
          showToast(against ? `Saved as version ${saved.version}.` : `Report “${saved.title}” created.`, 'success');
          if (!against) leaveOnPurpose(`/studio/reports/${encodeURIComponent(saved.slug)}/edit`, { replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'report_conflict') {
            setConflict({ message: conflictText(failureText(error.body)) });
            return;
          }
          const found = serverProblems(error);
          if (found) {
            setFromServer({ text: written, problems: found });
            showToast('The server found problems in the text: they are marked at their lines.', 'error');
            return;
          }
          if (!(error instanceof ApiError && (error.status === 401 || error.isAborted))) {
            showToast(`The report could not be saved: ${globalErrorText(error)}`, 'error');
          }
        },
      },
    );
  };

  /** After a conflict: the newest saved version, read past the cache. */
  const withLatest = (then: (report: ReportPublic) => void) => {
    if (!baseline) return;
    setResolving(true);
    fetchLatest(baseline.report.id)
      .then((report) => {
        setLatest(report);
        then(report);
      })
      .catch((error: unknown) =>
        showToast(`The latest version could not be loaded: ${globalErrorText(error)}`, 'error'),
      )
      .finally(() => setResolving(false));
  };

  const discardMine = () =>
    withLatest((report) => {
      setBaseline({ report, text: report.definition });
      setText(report.definition);
      setConflict(undefined);
      setConfirmDiscard(false);
      showToast(`Version ${report.version} loaded.`, 'info');
    });

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      if (!save.isPending) submit();
    }
  };

  const report = baseline?.report;
  const tabProps = (value: PanelTab) => ({
    value,
    id: `${ids.tabs}-${value}`,
    'aria-controls': ids.panel,
  });

  return (
    <Box onKeyDown={onKeyDown} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box component="header" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Link component={RouterLink} to="/studio/reports" variant="body2" sx={{ alignSelf: 'flex-start' }}>
          All reports
        </Link>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography component="h1" variant="h4" sx={{ fontWeight: 700, mr: 'auto', overflowWrap: 'anywhere' }}>
            {report ? `Edit: ${report.title}` : 'New report'}
          </Typography>
          {report ? <Chip size="small" variant="outlined" label={`Version ${report.version}`} /> : undefined}
          {dirty ? <Chip size="small" label={report ? 'Unsaved changes' : 'Not saved yet'} /> : undefined}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          <Button variant="contained" loading={save.isPending} onClick={() => submit()} title="Save (Ctrl+S)">
            {report ? 'Save' : 'Create report'}
          </Button>
          {report ? (
            <>
              <Button variant="outlined" component={RouterLink} to={reportPath(report)}>
                View report
              </Button>
              <Button variant="outlined" color="error" onClick={() => setConfirmDelete(true)}>
                Delete
              </Button>
            </>
          ) : undefined}
        </Box>
      </Box>

      {conflict && report ? (
        <Alert severity="warning" role="alert">
          <AlertTitle>Someone else saved a newer version</AlertTitle>
          <Typography variant="body2" sx={{ mb: 1.5 }}>
            {conflict.message}. Your text is still here, unsaved: compare it with theirs, save yours over it, or load
            theirs.
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
            <Button
              size="small"
              variant="outlined"
              color="inherit"
              disabled={resolving}
              onClick={() => withLatest(() => setComparing(true))}
            >
              Compare with the latest
            </Button>
            <Button
              size="small"
              variant="outlined"
              color="inherit"
              loading={save.isPending}
              disabled={resolving}
              onClick={() => withLatest((newest) => submit(newest))}
            >
              Save mine as the newest
            </Button>
            <Button size="small" color="inherit" disabled={resolving} onClick={() => setConfirmDiscard(true)}>
              Load theirs
            </Button>
          </Box>
        </Alert>
      ) : undefined}

      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
          alignItems: 'start',
        }}
      >
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 }}>
          <Suspense fallback={<LoadingLine sx={{ color: 'text.secondary', py: 4 }}>Loading the editor...</LoadingLine>}>
            <YamlEditor
              value={text}
              onChange={setText}
              problems={problems}
              tableNames={names}
              label="Report definition (YAML)"
              describedBy={ids.problems}
              handle={editor}
            />
          </Suspense>
          <Box id={ids.problems}>
            {problems.length === 0 ? (
              <Typography role="status" variant="body2" color="text.secondary">
                No problems found. Ctrl+Space suggests keys; Tab leaves the editor.
              </Typography>
            ) : (
              <Box role="status">
                <Typography variant="body2" color="error" sx={{ fontWeight: 600 }}>
                  {problems.length === 1 ? '1 problem' : `${problems.length} problems`}
                </Typography>
              </Box>
            )}
          </Box>
          {problems.length > 0 ? (
            <Box
              component="ul"
              aria-label="Problems"
              sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}
            >
              {problems.map((problem, index) => (
                <li key={index}>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => editor.current?.goTo(problem.line, problem.column)}
                    sx={{ textAlign: 'left', justifyContent: 'flex-start', textTransform: 'none' }}
                  >
                    Line {problem.line}, column {problem.column}: {problem.message}
                  </Button>
                </li>
              ))}
            </Box>
          ) : undefined}
        </Box>

        <Paper variant="outlined" sx={{ minWidth: 0 }}>
          <Tabs
            value={tab}
            onChange={(_, value: PanelTab) => setTab(value)}
            aria-label="Beside the text"
            variant="scrollable"
            allowScrollButtonsMobile
          >
            <Tab label="Preview" {...tabProps('preview')} />
            <Tab label="Tables" {...tabProps('tables')} />
            {report ? <Tab label="History" {...tabProps('history')} /> : undefined}
            <Tab label="Ask the agent" {...tabProps('agent')} />
          </Tabs>
          <Box
            role="tabpanel"
            id={ids.panel}
            aria-labelledby={`${ids.tabs}-${tab}`}
            sx={{ p: 2, borderTop: 1, borderColor: 'divider' }}
          >
            {tab === 'preview' ? (
              good ? (
                <EditorPreview
                  text={good.text}
                  definition={good.definition}
                  stale={!check.ok}
                  saved={report ? { id: report.id, version: report.version } : undefined}
                  values={previewValues}
                  onValuesChange={setPreviewValues}
                />
              ) : (
                <Typography color="text.secondary" variant="body2">
                  The preview appears once the text has no problems.
                </Typography>
              )
            ) : undefined}
            {tab === 'tables' ? (
              <SourceBrowser source={source} onInsert={(name) => editor.current?.insert(name)} />
            ) : undefined}
            {/* Kept mounted: a question on its way, or a proposal, outlives a look at another tab. */}
            <Box hidden={tab !== 'agent'}>
              <AgentPanel
                text={text}
                report={report ? { id: report.id, title: report.title } : undefined}
                onAccept={(proposal, messageId) => {
                  setText(proposal);
                  setAgentMessageId(messageId);
                  showToast('The proposal is in the editor, not saved yet: check it, then save.', 'info');
                }}
              />
            </Box>
            {tab === 'history' && report ? (
              <VersionHistory
                report={report}
                canWrite
                dirty={dirty}
                onRestored={(restored) => {
                  setBaseline({ report: restored, text: restored.definition });
                  setText(restored.definition);
                  setConflict(undefined);
                }}
              />
            ) : undefined}
          </Box>
        </Paper>
      </Box>

      {comparing && latest ? (
        <DiffDialog
          open
          onClose={() => setComparing(false)}
          reportId={latest.id}
          latestVersion={latest.version}
          initial={{ from: latest.version, to: MINE }}
          mine={text}
        />
      ) : undefined}
      <ConfirmDialog
        open={confirmDiscard}
        title="Load the latest version?"
        confirmLabel="Load theirs"
        loading={resolving}
        onConfirm={discardMine}
        onClose={() => setConfirmDiscard(false)}
      >
        Your unsaved text is replaced by the newest saved version. Compare them first if you want to keep part of yours.
      </ConfirmDialog>
      <ConfirmDialog
        open={leaveGuard.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave"
        cancelLabel="Stay"
        destructive
        onConfirm={() => leaveGuard.proceed?.()}
        onClose={() => leaveGuard.reset?.()}
      >
        Your changes to this report are not saved. If you leave now, they are lost.
      </ConfirmDialog>
      {report ? (
        <ConfirmDialog
          open={confirmDelete}
          title={`Delete “${report.title}”?`}
          loading={remove.isPending}
          onConfirm={() =>
            remove.mutate(report.id, {
              onSuccess: () => {
                showToast(`Report “${report.title}” deleted.`, 'success');
                leaveOnPurpose('/studio/reports');
              },
              onSettled: () => setConfirmDelete(false),
            })
          }
          onClose={() => setConfirmDelete(false)}
        >
          The report and all its versions are deleted. This cannot be undone.
        </ConfirmDialog>
      ) : undefined}
    </Box>
  );
}

function Centered({ children, alert }: { children: React.ReactNode; alert?: boolean }) {
  return (
    <Box
      role={alert ? 'alert' : 'status'}
      sx={{ py: 6, display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start' }}
    >
      {children}
    </Box>
  );
}

/**
 * `/studio/reports/new` and `/studio/reports/:reportKey/edit` (STUDIO-EDIT-*): for holders of
 * `reports:write`; built-in reports are read-only. The server checks both on every call anyway.
 */
export default function ReportEditorPage({ reportKey }: { reportKey?: string }) {
  const access = useQuery(accessQueryOptions());
  const report = useQuery({ ...reportQueryOptions(reportKey ?? ''), enabled: reportKey !== undefined });

  if (access.isPending || (reportKey !== undefined && report.isPending)) {
    return (
      <Centered>
        <LoadingLine sx={{ color: 'text.secondary' }}>Loading the editor...</LoadingLine>
      </Centered>
    );
  }
  const failed = access.isError ? access : report.isError ? report : undefined;
  if (failed) {
    return <ReportLoadFailure query={failed} describe={globalErrorText} />;
  }
  if (!access.data?.reports_write) {
    return (
      <Centered alert>
        <Typography>Writing reports needs the reports:write permission: ask an administrator for it.</Typography>
        <Link
          component={RouterLink}
          to={reportKey ? `/studio/reports/${encodeURIComponent(reportKey)}` : '/studio/reports'}
        >
          {reportKey ? 'Back to the report' : 'Back to the reports'}
        </Link>
      </Centered>
    );
  }
  if (report.data?.built_in) {
    return (
      <Centered alert>
        <Typography>Built-in reports are read-only. Start a new report to write your own.</Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <Link component={RouterLink} to={reportPath(report.data)}>
            Back to the report
          </Link>
          <Link component={RouterLink} to="/studio/reports/new">
            New report
          </Link>
        </Box>
      </Centered>
    );
  }
  return <EditorWorkspace key={report.data?.id ?? 'new'} initial={report.data} />;
}
