import { BUILT_IN_REPORT_HEADERS, type ReportPublic, type Reports, type ReportVersions } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import { createUser, useTestContext } from '../../../test/harness.js';
import { reportDefinition as definition, studioApi, useWritingTenant } from '../../../test/studio-fixtures.js';
import { BUILT_IN_REPORTS } from './built-in-reports.js';

const { ctx, admin } = useTestContext();
const api = studioApi(ctx);

/** Tenant A, with a writer and a reader. */
const a = useWritingTenant(ctx, admin, 'Built-ins A');

describe('built-in reports (STUDIO-REPORT-6)', () => {
  it('are listed first to every signed-in user, with or without a tenant', async () => {
    const plain = await createUser(ctx);
    const response = await api('GET', '/reports', plain);
    expect(response.statusCode).toBe(200);
    const page = response.json<Reports>();
    expect(page.count).toBe(3);
    expect(page.data.map((report) => [report.slug, report.built_in, report.source])).toEqual([
      ['payer', true, 'demo'],
      ['hospital-prices', true, 'demo'],
      ['cms-fs', true, 'demo'],
    ]);
  });

  it('are read by slug or id, with their definition, parameters and blocks', async () => {
    for (const builtIn of BUILT_IN_REPORTS) {
      const bySlug = await api('GET', `/reports/${builtIn.slug}`, a.reader);
      expect(bySlug.statusCode).toBe(200);
      const report = bySlug.json<ReportPublic>();
      expect(report).toMatchObject({
        // What the showcase pages draw before the report arrives: its id, title, description and source.
        ...BUILT_IN_REPORT_HEADERS[builtIn.slug as keyof typeof BUILT_IN_REPORT_HEADERS],
        id: builtIn.id,
        slug: builtIn.slug,
        version: 1,
        built_in: true,
        definition: builtIn.text,
      });
      expect(report.blocks.map((block) => block.kind)).toEqual(
        expect.arrayContaining(['kpi', 'chart', 'table', 'text']),
      );
      expect(report.params[0]).toMatchObject({ name: 'code', type: 'select', options: null });
      const byId = await api('GET', `/reports/${builtIn.id}`, a.reader, a.tenant.id);
      expect(byId.json<ReportPublic>().slug).toBe(builtIn.slug);
    }
    const versions = await api('GET', '/reports/payer/versions', a.reader);
    expect(versions.json<ReportVersions>()).toMatchObject({ count: 1, data: [{ version: 1, author_id: null }] });
  });

  it('cannot be changed, deleted or restored, even by a superuser', async () => {
    const put = await api('PUT', '/reports/payer', admin, a.tenant.id, { definition: definition('Mine'), version: 1 });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toMatchObject({ code: 'report_read_only' });
    const del = await api('DELETE', '/reports/hospital-prices', a.writer, a.tenant.id);
    expect(del.json()).toMatchObject({ code: 'report_read_only' });
    const restore = await api('POST', '/reports/cms-fs/versions/1/restore', a.writer, a.tenant.id);
    expect(restore.json()).toMatchObject({ code: 'report_read_only' });
    expect((await api('GET', '/reports/payer', admin)).json<ReportPublic>().version).toBe(1);
  });

  it('keep their slugs: no tenant report may take one, nor `new` (the editor’s path)', async () => {
    for (const slug of ['payer', 'new']) {
      const response = await api('POST', '/reports', a.writer, a.tenant.id, { definition: definition('x'), slug });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        detail: [
          { loc: ['body', 'slug'], msg: 'This slug is reserved: it belongs to a built-in report or a Studio page' },
        ],
      });
    }
    // A report titled "New" gets the next free slug.
    const titled = await api('POST', '/reports', a.writer, a.tenant.id, { definition: definition('New') });
    expect(titled.json<ReportPublic>().slug).toBe('new-2');
  });
});
