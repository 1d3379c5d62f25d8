import type { ReportParamPublic, ReportPublic, ReportRunResult } from '@dataplatform/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { paramOptionsQueryOptions, reportQueryOptions, runBlockQueryOptions } from './api/reports.js';
import { ReportViewer } from './components/report-viewer.js';
import { blockRunRequest, paramValues } from './report-view.js';

// A report with one block of each kind (one of them still running) and a parameter of each input,
// for the build alone: it is rendered beside a showcase report's frame so that the styles the viewer
// will draw once the report arrives are in the page (entry.server.tsx), and the browser does not
// compute and insert them at run time. The markup is thrown away; nothing of it reaches a browser.

const PROTOTYPE_ID = '00000000-0000-4000-8000-000000000000';

const params: ReportParamPublic[] = [
  { name: 'listed', label: 'Listed', type: 'select', default: 'a', options: ['a', 'b'], options_sql: null },
  { name: 'queried', label: 'Queried', type: 'select', default: 'a', options: null, options_sql: 'SELECT 1' },
  { name: 'text', label: 'Text', type: 'text', default: '', options: null, options_sql: null },
  { name: 'number', label: 'Number', type: 'number', default: 1, options: null, options_sql: null },
  { name: 'date', label: 'Date', type: 'date', default: '2026-01-01', options: null, options_sql: null },
  { name: 'flag', label: 'Flag', type: 'boolean', default: true, options: null, options_sql: null },
];

const report: ReportPublic = {
  id: PROTOTYPE_ID,
  slug: 'prototype',
  title: 'Prototype',
  description: 'Every kind of block.',
  source: 'demo',
  version: 1,
  built_in: true,
  visibility: 'tenant',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  definition: '',
  cache_seconds: 0,
  params,
  created_by: null,
  blocks: [
    { id: 'kpi', kind: 'kpi', title: 'Figure', kpi: { sql: 'SELECT 1 AS n', value: 'n', format: 'currency' } },
    { id: 'chart', kind: 'chart', title: 'Chart', chart: { sql: 'SELECT 1 AS n', spec: { mark: 'bar' } } },
    { id: 'table', kind: 'table', title: 'Table', table: { sql: 'SELECT 1 AS n', page_size: 2 } },
    { id: 'text', kind: 'text', title: 'Text', text: 'Text', html: '<p>Text</p>' },
    // No answer for this one: a block still running its query.
    { id: 'running', kind: 'kpi', title: 'Running', kpi: { sql: 'SELECT 1 AS n', value: 'n' } },
  ],
};

const result: ReportRunResult = {
  columns: [
    { name: 'name', type: 'VARCHAR' },
    { name: 'n', type: 'DOUBLE' },
  ],
  rows: [
    ['a', 1],
    ['b', 2],
  ],
  count: 3,
  cached: false,
  elapsed_ms: 1,
};

/** The viewer over the prototype report, every answer already in its query cache. */
export function ReportStylePrototype() {
  const client = new QueryClient();
  client.setQueryData(reportQueryOptions(report.slug).queryKey, report);
  const values = paramValues(params, new URLSearchParams());
  for (const block of report.blocks) {
    if (block.id === 'running') continue;
    const request = blockRunRequest(block, values, new URLSearchParams());
    client.setQueryData(runBlockQueryOptions(report.id, report.version, request).queryKey, result);
  }
  client.setQueryData(paramOptionsQueryOptions(report.id, report.version, 'queried').queryKey, {
    data: ['a', 'b'],
    count: 2,
  });
  return (
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <ReportViewer reportKey={report.slug} />
      </QueryClientProvider>
    </MemoryRouter>
  );
}
