import type { StudioExtract } from '@dataplatform/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../../../test/api-server.js';
import { STORAGE_KEYS } from '../../../lib/session.js';
import { renderWithFreshClient } from '../../../test/render-in-app.js';
import { SourcesPage } from './sources-page.js';

const SALES: StudioExtract = {
  id: '5d0d1e00-0000-4000-8000-0000000000e1',
  name: 'sales',
  source_id: 'extract',
  format: 'csv',
  tables: [
    {
      name: 'sales',
      columns: [
        { name: 'region', type: 'VARCHAR' },
        { name: 'units', type: 'BIGINT' },
      ],
    },
  ],
  bytes: 12_345,
  rows: 1_200,
  created_at: '2026-11-02T10:00:00.000Z',
};

/** A stand-in for XMLHttpRequest: records the request, and the test sends progress and the answer. */
class FakeRequest {
  static sent: FakeRequest[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  aborted = false;
  withCredentials = false;
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeRequest.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' ? 'application/json' : null;
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent));
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
}

interface Server {
  extracts: StudioExtract[];
  sourcesFail: number;
  deleted: string[];
}

/** The API: a writer (or a reader) in a tenant with the demo and extract sources. */
function serve(options: { sourcesWrite?: boolean; sourcesFail?: number } = {}): Server {
  const server: Server = { extracts: [SALES], sourcesFail: options.sourcesFail ?? 0, deleted: [] };
  serveApi(async (url, init) => {
    const method = init.method ?? 'GET';
    if (url === '/api/v1/studio/access') {
      return Response.json({
        reports_write: false,
        sources_write: options.sourcesWrite ?? true,
        extract_max_bytes: MAX_BYTES,
      });
    }
    if (url === '/api/v1/studio/sources') {
      if (server.sourcesFail > 0) {
        server.sourcesFail -= 1;
        return Response.json({ detail: 'Boom', code: 'internal_error' }, { status: 500 });
      }
      return Response.json({
        data: [
          { id: 'demo', kind: 'demo', name: 'Price transparency demo' },
          { id: 'extract', kind: 'extract', name: "The tenant's extracts" },
        ],
        count: 2,
      });
    }
    if (url === '/api/v1/studio/sources/demo/tables') {
      return Response.json({ data: [{ name: 'rates', columns: [{ name: 'payer', type: 'VARCHAR' }] }], count: 1 });
    }
    if (url === '/api/v1/studio/extracts')
      return Response.json({ data: server.extracts, count: server.extracts.length });
    if (method === 'DELETE' && url.startsWith('/api/v1/studio/extracts/')) {
      const id = url.split('/').pop()!;
      server.deleted.push(id);
      server.extracts = server.extracts.filter((extract) => extract.id !== id);
      return new Response(null, { status: 204 });
    }
    return Response.json({ detail: 'Not Found', code: 'not_found' }, { status: 404 });
  });
  return server;
}

function renderPage() {
  return renderWithFreshClient(
    <MemoryRouter>
      <SourcesPage />
    </MemoryRouter>,
  );
}

/** The server's limit in these tests: 64 MB. */
const MAX_BYTES = 64_000_000;

const csv = (name: string, size = 1_000) => new File(['x'.repeat(size)], name, { type: 'text/csv' });

beforeEach(() => {
  FakeRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
  localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
  localStorage.setItem(STORAGE_KEYS.selectedTenantId, 'tenant-1');
});

afterEach(() => vi.unstubAllGlobals());

describe('SourcesPage (STUDIO-SOURCE-7)', () => {
  it('lists the sources, the extracts with their columns, and a source’s tables when opened', async () => {
    const user = userEvent.setup();
    serve();
    renderPage();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the sources...');
    expect(await screen.findByRole('heading', { level: 2, name: "The tenant's extracts" })).toBeVisible();
    const extracts = await screen.findByRole('table', { name: 'Extracts' });
    const row = await within(extracts).findByRole('row', { name: /sales/ });
    expect(row).toHaveTextContent('2 columns: region (VARCHAR), units (BIGINT)');
    expect(row).toHaveTextContent('1,200');
    expect(row).toHaveTextContent('CSV, 12.3 KB');

    // The demo's tables are asked for only when opened.
    const demo = screen.getByRole('region', { name: 'Price transparency demo' });
    await user.click(within(demo).getByRole('button', { name: 'Tables and columns' }));
    expect(await within(demo).findByText('rates')).toBeVisible();
    expect(within(demo).getByText('1 column: payer (VARCHAR)')).toBeVisible();
  });

  it('says when the sources could not be loaded, and Try again loads them', async () => {
    const user = userEvent.setup();
    serve({ sourcesFail: 1 });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('The sources could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Price transparency demo' })).toBeVisible();
  });

  it('says when the tenant has no files yet', async () => {
    const server = serve();
    server.extracts = [];
    renderPage();
    expect(await screen.findByText('No files uploaded yet.')).toBeVisible();
  });

  it('shows a reader the files without Upload or Delete, and says what writing needs', async () => {
    serve({ sourcesWrite: false });
    renderPage();
    expect(await screen.findByText(/Uploading and deleting them needs the sources:write permission/)).toBeVisible();
    expect(await screen.findByRole('row', { name: /sales/ })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete sales' })).toBeNull();
  });

  it('without a tenant shows the demo source and says how to get the rest', async () => {
    localStorage.removeItem(STORAGE_KEYS.selectedTenantId);
    serve();
    renderPage();
    expect(await screen.findByText(/Only the demo data is shown/)).toBeVisible();
  });

  it('uploads a file with its progress, names the table after the file, and lists it', async () => {
    const user = userEvent.setup();
    const server = serve();
    renderPage();
    await user.upload(await screen.findByLabelText(/CSV or Parquet file/), csv('Price List 2026.csv'));
    expect(screen.getByRole('textbox', { name: 'Table name' })).toHaveValue('price_list_2026');
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const request = FakeRequest.sent[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v1/studio/extracts?name=price_list_2026');
    expect(request.headers).toMatchObject({
      'Content-Type': 'text/csv',
      'X-Tenant-ID': 'tenant-1',
      Authorization: 'Bearer token',
    });
    expect(request.body).toBeInstanceOf(File);

    request.progress(400, 1_000);
    const bar = screen.getByRole('progressbar', { name: 'Uploading Price List 2026.csv' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText('400 bytes of 1 KB sent (40%)')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();

    request.progress(1_000, 1_000);
    expect(screen.getByText('The file is sent; the server is reading it.')).toBeVisible();
    server.extracts = [
      ...server.extracts,
      { ...SALES, id: '5d0d1e00-0000-4000-8000-0000000000e2', name: 'price_list_2026' },
    ];
    request.answer(201, server.extracts[1]);
    expect(await screen.findByRole('row', { name: /price_list_2026/ })).toBeVisible();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Table name' })).toHaveValue('');
  });

  it('cancels an upload in flight: the request is aborted and nothing is kept', async () => {
    const user = userEvent.setup();
    serve();
    renderPage();
    await user.upload(await screen.findByLabelText(/CSV or Parquet file/), csv('sales2.csv'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    FakeRequest.sent[0]!.progress(100, 1_000);
    // The keyboard is on Cancel while the file goes out, and back on Upload once it is cancelled.
    expect(screen.getByRole('button', { name: 'Cancel upload' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(FakeRequest.sent[0]!.aborted).toBe(true);
    expect(await screen.findByRole('status')).toHaveTextContent('Upload cancelled. Nothing was kept.');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Upload' })).toHaveFocus();
  });

  it('says a cancel after the whole file went out may still leave the table, and looks again', async () => {
    const user = userEvent.setup();
    const server = serve();
    renderPage();
    await user.upload(await screen.findByLabelText(/CSV or Parquet file/), csv('late.csv'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    FakeRequest.sent[0]!.progress(1_000, 1_000);
    server.extracts = [...server.extracts, { ...SALES, id: '5d0d1e00-0000-4000-8000-0000000000e3', name: 'late' }];
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(await screen.findByRole('status')).toHaveTextContent('the server may still add it');
    expect(await screen.findByRole('row', { name: /late/ })).toBeVisible();
  });

  it('refuses a file over the server’s limit before sending it', async () => {
    const user = userEvent.setup();
    serve();
    renderPage();
    const input = await screen.findByLabelText(/CSV or Parquet file/);
    expect(input).toHaveAccessibleDescription('A .csv or .parquet file of at most 64 MB.');
    const big = csv('big.csv');
    Object.defineProperty(big, 'size', { value: 70_000_000 });
    await user.upload(input, big);
    expect(input).toHaveAccessibleDescription('This file is 70 MB: an extract may be at most 64 MB.');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(FakeRequest.sent).toHaveLength(0);
  });

  it.each([
    [
      413,
      'extract_too_large',
      'The file is larger than the 67108864 bytes an extract may have',
      'The file is too large',
    ],
    [
      422,
      'extract_invalid',
      'The file could not be read as CSV: Error when sniffing file',
      'The file could not be read',
    ],
    [
      409,
      'extract_name_taken',
      'This tenant already has an extract with this name: delete it first, or choose another name',
      'The name is taken',
    ],
  ])('shows the server’s %i %s beside the form', async (status, code, detail, title) => {
    const user = userEvent.setup();
    serve();
    renderPage();
    await user.upload(await screen.findByLabelText(/CSV or Parquet file/), csv('sales.csv'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    FakeRequest.sent[0]!.answer(status, { detail, code });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(title);
    expect(alert).toHaveTextContent(detail);
    const name = screen.getByRole('textbox', { name: 'Table name' });
    if (code === 'extract_name_taken') expect(name).toHaveAccessibleDescription(detail);
    else expect(name).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('checks the file and the name before sending anything', async () => {
    const user = userEvent.setup({ applyAccept: false });
    serve();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Upload' }));
    expect(screen.getByText('Choose a file to upload.')).toBeVisible();
    await user.upload(screen.getByLabelText(/CSV or Parquet file/), new File(['{}'], 'data.json'));
    await user.type(screen.getByRole('textbox', { name: 'Table name' }), 'Bad Name');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByText('Choose a CSV (.csv) or Parquet (.parquet) file.')).toBeVisible();
    await user.upload(screen.getByLabelText(/CSV or Parquet file/), csv('ok.csv'));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('textbox', { name: 'Table name' })).toHaveAccessibleDescription(
      /must be 1 to 63 lowercase letters/,
    );
    expect(FakeRequest.sent).toHaveLength(0);
  });

  it('deletes an extract after asking', async () => {
    const user = userEvent.setup();
    const server = serve();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete sales' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “sales”?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(server.deleted).toEqual([SALES.id]));
    expect(await screen.findByText('No files uploaded yet.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
