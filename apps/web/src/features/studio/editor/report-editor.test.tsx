import type { ReportPublic } from '@dataplatform/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../../../test/api-server.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import type { EditorProblem } from './definition-problems.js';
import ReportEditorPage from './report-editor.js';

// CodeMirror needs a real layout; the page's logic is tested against a plain text area that shows
// the problems it is handed, as CodeMirror's lint does.
vi.mock('./yaml-editor.js', () => ({
  default: ({
    value,
    onChange,
    problems,
    label,
  }: {
    value: string;
    onChange: (text: string) => void;
    problems: EditorProblem[];
    label: string;
  }) => (
    <div>
      <textarea aria-label={label} value={value} onChange={(event) => onChange(event.target.value)} />
      <output aria-label="Marked lines">{problems.map((problem) => problem.line).join(',')}</output>
    </div>
  ),
}));

const TEXT = (note: string) => `title: Rates
source: demo
blocks:
  - id: total
    kpi: { sql: "SELECT count(*) AS n FROM rates", value: n }
  - id: note
    text: ${note}
`;

function report(version: number, note: string): ReportPublic {
  return {
    id: '5d0d1e00-0000-4000-8000-00000000000a',
    slug: 'rates',
    title: 'Rates',
    description: null,
    source: 'demo',
    version,
    built_in: false,
    visibility: 'tenant',
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-02T10:00:00.000Z',
    definition: TEXT(note),
    cache_seconds: 0,
    created_by: null,
    params: [],
    blocks: [],
  };
}

interface Put {
  definition: string;
  version: number;
}

/** The server: version 1 on load; once "someone else" saved, version 2 and a 409 for a save of version 1. */
function serve(options: { invalidOnServer?: boolean } = {}) {
  const puts: Put[] = [];
  const previews: { definition: string; block: string; params: Record<string, string> }[] = [];
  const state = { current: report(1, 'Mine to start with') };
  serveApi(async (url, init) => {
    const method = init.method ?? 'GET';
    if (url === '/api/v1/studio/access') return Response.json({ reports_write: true });
    if (url.startsWith('/api/v1/studio/sources/')) return Response.json({ data: [], count: 0 });
    if (url === '/api/v1/studio/preview') {
      previews.push(JSON.parse(init.body as string) as (typeof previews)[number]);
      return Response.json({
        columns: [{ name: 'n', type: 'BIGINT' }],
        rows: [[3]],
        count: 1,
        cached: false,
        elapsed_ms: 1,
      });
    }
    if (
      method === 'GET' &&
      (url.endsWith('/studio/reports/rates') || url.endsWith(`/studio/reports/${state.current.id}`))
    ) {
      return Response.json(state.current);
    }
    if (method === 'PUT') {
      const body = JSON.parse(init.body as string) as Put;
      puts.push(body);
      if (options.invalidOnServer) {
        return Response.json(
          {
            code: 'validation_failed',
            detail: [
              {
                loc: ['body', 'definition', 'blocks', 0, 'kpi', 'sql'],
                msg: 'Only SELECT may run',
                type: 'query',
                line: 5,
                column: 18,
              },
            ],
          },
          { status: 422 },
        );
      }
      if (puts.length === 1) {
        // Someone else saved version 2 meanwhile.
        state.current = report(2, 'Theirs');
        return Response.json(
          {
            code: 'report_conflict',
            detail:
              'You edited version 1, but version 2 was saved by ann@example.com at 2026-11-27T02:00:00.000Z: reload the report and apply your change again',
          },
          { status: 409 },
        );
      }
      state.current = { ...report(body.version + 1, ''), definition: body.definition };
      return Response.json(state.current);
    }
    if (url.endsWith('/versions/2')) {
      return Response.json({
        version: 2,
        author_id: null,
        author_email: 'ann@example.com',
        created_at: '2026-11-27T02:00:00.000Z',
        restored_from: null,
        title: 'Rates',
        definition: TEXT('Theirs'),
      });
    }
    return Response.json({ detail: 'Not Found' }, { status: 404 });
  });
  return { puts, previews, state };
}

/** The editor in a data router (its leave guard needs one), beside a report list to leave for. */
function renderEditor() {
  const router = createMemoryRouter(
    [
      { path: '/studio/reports/rates/edit', element: <ReportEditorPage reportKey="rates" /> },
      { path: '/studio/reports', element: <p>The report list</p> },
    ],
    { initialEntries: ['/studio/reports/rates/edit'] },
  );
  return { router, ...renderWithFreshClient(<RouterProvider router={router} />) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ReportEditorPage', () => {
  it('marks a problem of the schema at its line and column as the text changes, and lists it', async () => {
    serve();
    renderEditor();
    const text = await screen.findByRole('textbox', { name: 'Report definition (YAML)' });
    expect(await screen.findByText(/No problems found/)).toBeInTheDocument();

    fireEvent.change(text, { target: { value: TEXT('ok').replace('source: demo', 'source: nowhere') } });
    const problem = await screen.findByRole('button', { name: /^Line 2, column 9: source: / });
    expect(problem).toBeInTheDocument();
    expect(screen.getByText('1 problem')).toBeInTheDocument();
    expect(screen.getByLabelText('Marked lines')).toHaveTextContent('2');

    fireEvent.change(text, { target: { value: 'title: [unclosed' } });
    expect(await screen.findByRole('button', { name: /YAML syntax error/ })).toBeInTheDocument();

    fireEvent.change(text, { target: { value: TEXT('fixed') } });
    expect(await screen.findByText(/No problems found/)).toBeInTheDocument();
  });

  it('shows the server’s 422 problems of a save at their lines', async () => {
    const { puts } = serve({ invalidOnServer: true });
    renderEditor();
    const text = await screen.findByRole('textbox', { name: 'Report definition (YAML)' });
    fireEvent.change(text, { target: { value: TEXT('changed') } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByRole('button', { name: 'Line 5, column 18: blocks › 1 › kpi › sql: Only SELECT may run' }),
    ).toBeInTheDocument();
    expect(puts).toHaveLength(1);
    expect(screen.getByLabelText('Marked lines')).toHaveTextContent('5');
  });

  it('explains a conflict, keeps the text, compares it with the latest and saves it over on request', async () => {
    const { puts } = serve();
    renderEditor();
    const text = await screen.findByRole('textbox', { name: 'Report definition (YAML)' });
    fireEvent.change(text, { target: { value: TEXT('My change') } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone else saved a newer version');
    expect(alert).toHaveTextContent('version 2 was saved by ann@example.com');
    expect(puts[0]).toMatchObject({ version: 1 });
    // Nothing is lost: the text is still the user's.
    expect(text).toHaveValue(TEXT('My change'));

    await userEvent.click(within(alert).getByRole('button', { name: 'Compare with the latest' }));
    const dialog = await screen.findByRole('dialog', { name: 'Compare versions' });
    const diff = await within(dialog).findByRole('region', { name: 'Changes from version 2 to your text (not saved)' });
    expect(diff.querySelector('del')).toHaveTextContent('text: Theirs');
    expect(diff.querySelector('ins')).toHaveTextContent('text: My change');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    await userEvent.click(within(alert).getByRole('button', { name: 'Save mine as the newest' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ definition: TEXT('My change'), version: 2 });
    await waitFor(() => expect(screen.queryByText('Someone else saved a newer version')).not.toBeInTheDocument());
    expect(await screen.findByText('Version 3')).toBeInTheDocument();
    expect(text).toHaveValue(TEXT('My change'));
  });

  it('runs the preview with the values chosen in the parameter bar (STUDIO-EDIT-3)', async () => {
    const user = userEvent.setup();
    const { previews } = serve();
    renderEditor();
    const text = await screen.findByRole('textbox', { name: 'Report definition (YAML)' });
    fireEvent.change(text, {
      target: {
        value: TEXT('With a parameter').replace(
          'blocks:',
          'params:\n  code: { label: Billing code, type: select, options: ["99213", "70450"], default: "99213" }\nblocks:',
        ),
      },
    });
    const bar = await screen.findByRole('search', { name: 'Report parameters' });
    await waitFor(() => expect(previews.some((preview) => preview.definition.includes('params:'))).toBe(true));
    expect(previews.at(-1)).toMatchObject({ block: 'total', params: {} });
    await user.click(await within(bar).findByRole('combobox', { name: 'Billing code' }));
    await user.click(await screen.findByRole('option', { name: '70450' }));
    await waitFor(() => expect(previews.at(-1)).toMatchObject({ block: 'total', params: { code: '70450' } }));
    expect(within(bar).getByRole('combobox', { name: 'Billing code' })).toHaveTextContent('70450');
  });

  it('asks before leaving with unsaved changes, stays on Stay and leaves on Leave', async () => {
    serve();
    const { router } = renderEditor();
    const text = await screen.findByRole('textbox', { name: 'Report definition (YAML)' });
    await screen.findByText(/No problems found/);

    // Nothing changed: the way out is open.
    await act(() => router.navigate('/studio/reports'));
    expect(await screen.findByText('The report list')).toBeInTheDocument();
    await act(() => router.navigate(-1));
    const again = await screen.findByRole('textbox', { name: 'Report definition (YAML)' });
    expect(again).not.toBe(text);

    fireEvent.change(again, { target: { value: TEXT('Changed') } });
    await act(() => router.navigate('/studio/reports'));
    const question = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await userEvent.click(within(question).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/studio/reports/rates/edit');

    await act(() => router.navigate('/studio/reports'));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    expect(await screen.findByText('The report list')).toBeInTheDocument();
  });

  it('loads the other version only after a confirmation', async () => {
    serve();
    renderEditor();
    const text = await screen.findByRole('textbox', { name: 'Report definition (YAML)' });
    fireEvent.change(text, { target: { value: TEXT('My change') } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Load theirs' }));
    const confirm = await screen.findByRole('dialog', { name: 'Load the latest version?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Load theirs' }));
    await waitFor(() => expect(text).toHaveValue(TEXT('Theirs')));
    expect(screen.getByText('Version 2')).toBeInTheDocument();
  });
});
