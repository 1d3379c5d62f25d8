import {
  PERMISSIONS,
  REPORT_DEFINITION_MAX,
  type AuditEntries,
  type ReportPublic,
  type Reports,
  type ReportVersions,
  type TenantPublic,
} from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../test/authz-fixtures.js';
import { createUser, useTestContext, type TestUser } from '../../../test/harness.js';
import { reportDefinition as definition, studioApi, useWritingTenant } from '../../../test/studio-fixtures.js';
import { createTenant } from '../../../test/tenant-fixtures.js';

const { ctx, admin } = useTestContext();

const api = studioApi(ctx);

/** Tenant A, with a writer and a reader. */
const a = useWritingTenant(ctx, admin, 'Reports A');
let tenantB: TenantPublic;
/** A member of B holding reports:write. */
let writerB: TestUser;

async function createReport(
  text: string,
  user = a.writer,
  tenantId = a.tenant.id,
  slug?: string,
): Promise<ReportPublic> {
  const response = await api('POST', '/reports', user, tenantId, { definition: text, ...(slug ? { slug } : {}) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ReportPublic>();
}

async function auditOf(reportId: string): Promise<AuditEntries> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/audit/?target_type=report&target_id=${reportId}`,
    headers: admin.headers,
  });
  return response.json<AuditEntries>();
}

beforeAll(async () => {
  writerB = await createUser(ctx);
  await createRole(ctx, { grants: [PERMISSIONS.reportsWrite], userIds: [writerB.id] });
  tenantB = await createTenant(ctx, admin, { name: 'Reports B', members: [writerB] });
});

describe('the editor’s reads (STUDIO-EDIT-4, STUDIO-EDIT-1)', () => {
  it('answers one version with its whole text, to readers of the tenant, and 404 for a missing one', async () => {
    const created = await createReport(definition('Versioned'));
    const saved = await api('PUT', `/reports/${created.id}`, a.writer, a.tenant.id, {
      definition: definition('Versioned', ' again'),
      version: 1,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const first = await api('GET', `/reports/${created.slug}/versions/1`, a.reader, a.tenant.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      version: 1,
      author_email: a.writer.email,
      definition: definition('Versioned'),
    });
    const second = await api('GET', `/reports/${created.id}/versions/2`, a.reader, a.tenant.id);
    expect(second.json()).toMatchObject({ version: 2, definition: definition('Versioned', ' again') });
    expect((await api('GET', `/reports/${created.id}/versions/3`, a.reader, a.tenant.id)).statusCode).toBe(404);
    expect((await api('GET', `/reports/${created.id}/versions/1`, writerB, tenantB.id)).statusCode).toBe(404);
    const builtIn = await api('GET', '/reports/payer/versions/1', a.reader);
    expect(builtIn.json<{ definition: string }>().definition).toContain('title:');
  });

  it('tells the caller whether it may write reports, upload extracts and set embedding, and how large a file may be', async () => {
    const max = ctx.config.studio.extractMaxBytes;
    expect((await api('GET', '/access', a.writer)).json()).toEqual({
      reports_write: true,
      sources_write: false,
      embed_manage: false,
      extract_max_bytes: max,
    });
    expect((await api('GET', '/access', a.reader)).json()).toEqual({
      reports_write: false,
      sources_write: false,
      embed_manage: false,
      extract_max_bytes: max,
    });
    const uploader = await createUser(ctx);
    await createRole(ctx, { grants: [PERMISSIONS.sourcesWrite], userIds: [uploader.id] });
    expect((await api('GET', '/access', uploader)).json()).toEqual({
      reports_write: false,
      sources_write: true,
      embed_manage: false,
      extract_max_bytes: max,
    });
    expect((await api('GET', '/access', admin)).json()).toEqual({
      reports_write: true,
      sources_write: true,
      embed_manage: true,
      extract_max_bytes: max,
    });
    expect((await ctx.app.inject({ url: '/api/v1/studio/access' })).statusCode).toBe(401);
  });
});

describe('a report’s life (STUDIO-REPORT-2)', () => {
  it('is created, read, saved again, its versions listed, restored and deleted, each change audited', async () => {
    const created = await createReport(definition('Rates for one code'));
    expect(created).toMatchObject({
      slug: 'rates-for-one-code',
      title: 'Rates for one code',
      version: 1,
      built_in: false,
      cache_seconds: 300,
      created_by: a.writer.id,
    });
    expect(created.blocks).toEqual([
      expect.objectContaining({ id: 'total', kind: 'kpi' }),
      expect.objectContaining({
        id: 'detail',
        kind: 'table',
        table: { sql: expect.any(String) as string, page_size: 10 },
      }),
      expect.objectContaining({ id: 'note', kind: 'text', text: 'Hello', html: '<p>Hello</p>' }),
    ]);

    const bySlug = await api('GET', '/reports/rates-for-one-code', a.reader, a.tenant.id);
    expect(bySlug.json<ReportPublic>()).toMatchObject({ id: created.id, definition: definition('Rates for one code') });
    const list = (await api('GET', '/reports', a.reader, a.tenant.id)).json<Reports>();
    expect(list.data.slice(0, 3).every((report) => report.built_in)).toBe(true);
    expect(list.data.map((report) => report.id)).toContain(created.id);

    const saved = await api('PUT', `/reports/${created.id}`, a.writer, a.tenant.id, {
      definition: definition('Rates, renamed', ' again'),
      version: 1,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<ReportPublic>()).toMatchObject({
      version: 2,
      title: 'Rates, renamed',
      slug: 'rates-for-one-code',
    });

    const restored = await api('POST', `/reports/${created.id}/versions/1/restore`, a.writer, a.tenant.id);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<ReportPublic>()).toMatchObject({
      version: 3,
      title: 'Rates for one code',
      definition: definition('Rates for one code'),
    });

    const versions = (
      await api('GET', `/reports/${created.id}/versions`, a.reader, a.tenant.id)
    ).json<ReportVersions>();
    expect(versions.count).toBe(3);
    expect(versions.data.map((version) => [version.version, version.title, version.restored_from])).toEqual([
      [3, 'Rates for one code', 1],
      [2, 'Rates, renamed', null],
      [1, 'Rates for one code', null],
    ]);
    expect(
      versions.data.every((version) => version.author_id === a.writer.id && version.author_email === a.writer.email),
    ).toBe(true);
    const missing = await api('POST', `/reports/${created.id}/versions/9/restore`, a.writer, a.tenant.id);
    expect(missing.statusCode).toBe(404);

    const deleted = await api('DELETE', `/reports/${created.id}`, a.writer, a.tenant.id);
    expect(deleted.statusCode).toBe(204);
    expect((await api('GET', `/reports/${created.id}`, a.reader, a.tenant.id)).statusCode).toBe(404);
    expect((await api('GET', `/reports/${created.id}/versions`, a.reader, a.tenant.id)).statusCode).toBe(404);

    const entries = (await auditOf(created.id)).data;
    expect(entries.map((entry) => entry.action).reverse()).toEqual([
      'report.create',
      'report.update',
      'report.restore',
      'report.delete',
    ]);
    expect(entries.every((entry) => entry.actor_id === a.writer.id)).toBe(true);
    expect(entries.find((entry) => entry.action === 'report.update')).toMatchObject({
      before: { version: 1, title: 'Rates for one code', tenant_id: a.tenant.id },
      after: { version: 2, title: 'Rates, renamed' },
    });
    expect(entries.find((entry) => entry.action === 'report.restore')?.after).toMatchObject({
      version: 3,
      restored_from: 1,
    });
  });

  it('refuses a save of a stale version with 409 report_conflict saying who saved when, and keeps the newer text', async () => {
    const created = await createReport(definition('Contested'));
    const first = await api('PUT', `/reports/${created.slug}`, a.writer, a.tenant.id, {
      definition: definition('Contested', ' first'),
      version: 1,
    });
    expect(first.statusCode).toBe(200);
    const second = await api('PUT', `/reports/${created.slug}`, admin, a.tenant.id, {
      definition: definition('Contested', ' second'),
      version: 1,
    });
    expect(second.statusCode).toBe(409);
    const body = second.json<{ detail: string; code: string }>();
    expect(body.code).toBe('report_conflict');
    expect(body.detail).toContain('version 2');
    expect(body.detail).toContain(a.writer.email);
    expect(body.detail).toContain(first.json<ReportPublic>().updated_at.slice(0, 16));
    const current = (await api('GET', `/reports/${created.id}`, a.reader, a.tenant.id)).json<ReportPublic>();
    expect(current).toMatchObject({ version: 2, definition: definition('Contested', ' first') });
    expect(
      (await api('GET', `/reports/${created.id}/versions`, a.reader, a.tenant.id)).json<ReportVersions>().count,
    ).toBe(2);
  });

  it('settles two saves of the same version at once: one wins, the other is a 409', async () => {
    const created = await createReport(definition('Raced'));
    const saves = await Promise.all(
      ['one', 'two'].map((word) =>
        api('PUT', `/reports/${created.id}`, a.writer, a.tenant.id, {
          definition: definition('Raced', word),
          version: 1,
        }),
      ),
    );
    expect(saves.map((save) => save.statusCode).sort()).toEqual([200, 409]);
    expect(
      (await api('GET', `/reports/${created.id}/versions`, a.reader, a.tenant.id)).json<ReportVersions>().count,
    ).toBe(2);
  });

  it('gives each new report a free slug from its title, and refuses a slug taken in the tenant', async () => {
    const first = await createReport(definition('Same title'));
    const second = await createReport(definition('Same title'));
    expect([first.slug, second.slug]).toEqual(['same-title', 'same-title-2']);
    const taken = await api('POST', '/reports', a.writer, a.tenant.id, {
      definition: definition('Other'),
      slug: 'same-title',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'report_slug_taken' });
    // Another tenant has its own slugs.
    expect((await createReport(definition('Same title'), writerB, tenantB.id)).slug).toBe('same-title');
  });

  it('is found in the list by a word of its title, description or slug, with who saved it last', async () => {
    await createReport(definition('Quarterly 100% margin_review'));
    const found = await api('GET', '/reports?q=100%25%20margin_', a.writer, a.tenant.id);
    expect(found.statusCode, found.body).toBe(200);
    const list = found.json<Reports>();
    // % and _ are matched as themselves, not as LIKE wildcards; no built-in matches.
    expect(list.data.map((report) => report.title)).toEqual(['Quarterly 100% margin_review']);
    expect(list).toMatchObject({ count: 1, data: [{ updated_by: a.writer.email, built_in: false }] });
    const builtIn = (await api('GET', '/reports?q=PAYER', a.writer, a.tenant.id)).json<Reports>();
    expect(builtIn.data.map((report) => report.slug)).toContain('payer');
    expect(builtIn.data.find((report) => report.slug === 'payer')?.updated_by).toBeNull();
    const elsewhere = (await api('GET', '/reports?q=margin', writerB, tenantB.id)).json<Reports>();
    expect(elsewhere).toEqual({ data: [], count: 0 });
  });

  it('sends a text block as HTML in which markup of the definition is text and a javascript: link has no target', async () => {
    const hostile = definition('Hostile text', ' <img src=x onerror=alert(1)> [go](javascript:alert(2))');
    const created = await createReport(hostile);
    const note = created.blocks.find((block) => block.id === 'note');
    expect(note?.html).toBe('<p>Hello &lt;img src=x onerror=alert(1)&gt; <a href="">go</a></p>');
  });

  it('needs a tenant to save into', async () => {
    const response = await api('POST', '/reports', a.writer, undefined, { definition: definition('Nowhere') });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail: 'Select a tenant (X-Tenant-ID) to save reports in' });
  });
});

describe('tenant isolation of reports (STUDIO-REPORT-3)', () => {
  it('a member of another tenant can neither see nor change a report, and cannot tell it exists', async () => {
    const report = await createReport(definition('Only for A'));
    const unknownId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    for (const key of [report.id, report.slug]) {
      const read = await api('GET', `/reports/${key}`, writerB, tenantB.id);
      const unknown = await api('GET', `/reports/${unknownId}`, writerB, tenantB.id);
      expect([read.statusCode, read.json()]).toEqual([unknown.statusCode, unknown.json()]);
      expect(read.json()).toEqual({ detail: 'Report not found', code: 'report_not_found' });
      const put = await api('PUT', `/reports/${key}`, writerB, tenantB.id, {
        definition: definition('Taken'),
        version: 1,
      });
      expect(put.statusCode).toBe(404);
      expect((await api('DELETE', `/reports/${key}`, writerB, tenantB.id)).statusCode).toBe(404);
      expect((await api('POST', `/reports/${key}/versions/1/restore`, writerB, tenantB.id)).statusCode).toBe(404);
      expect((await api('GET', `/reports/${key}/versions`, writerB, tenantB.id)).statusCode).toBe(404);
      expect((await api('POST', `/reports/${key}/run`, writerB, tenantB.id, { block: 'total' })).statusCode).toBe(404);
    }
    const listB = (await api('GET', '/reports', writerB, tenantB.id)).json<Reports>();
    expect(listB.data.map((row) => row.id)).not.toContain(report.id);
    // Naming tenant A is refused by the tenant check before anything else.
    const header = await api('GET', `/reports/${report.id}`, writerB, a.tenant.id);
    expect(header.statusCode).toBe(403);
    // Without a tenant, only the built-ins exist, for anyone.
    expect((await api('GET', `/reports/${report.id}`, a.writer)).statusCode).toBe(404);
    expect((await api('GET', `/reports/${report.id}`, admin)).statusCode).toBe(404);
    // A superuser reads any tenant's reports by choosing it.
    expect((await api('GET', `/reports/${report.id}`, admin, a.tenant.id)).statusCode).toBe(200);
    expect((await api('GET', `/reports/${report.id}`, a.reader, a.tenant.id)).json<ReportPublic>().version).toBe(1);
  });

  it('a reader of the tenant cannot write: reports:write is needed', async () => {
    const report = await createReport(definition('Read only for some'));
    const put = await api('PUT', `/reports/${report.id}`, a.reader, a.tenant.id, {
      definition: definition('x'),
      version: 1,
    });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toMatchObject({ code: 'permission_denied' });
    expect((await api('POST', '/reports', a.reader, a.tenant.id, { definition: definition('x') })).statusCode).toBe(
      403,
    );
  });
});

describe('bad definitions (STUDIO-REPORT-4)', () => {
  it('a YAML syntax error is a 422 with its line and column', async () => {
    const response = await api('POST', '/reports', a.writer, a.tenant.id, {
      definition: 'title: Broken\nsource: demo\nblocks:\n  - id: a\n    text: [unclosed\n',
    });
    expect(response.statusCode).toBe(422);
    const body = response.json<{
      code: string;
      detail: { loc: unknown[]; msg: string; line: number; column: number }[];
    }>();
    expect(body.code).toBe('validation_failed');
    expect(body.detail[0]!.loc).toEqual(['body', 'definition']);
    expect(body.detail[0]!.msg).toMatch(/^YAML syntax error/);
    expect(body.detail[0]!.line).toBeGreaterThanOrEqual(5);
    expect(body.detail[0]!.column).toBeGreaterThanOrEqual(1);
  });

  it('each schema problem is an item at its line and column, and nothing is saved', async () => {
    const before = (await api('GET', '/reports', a.writer, a.tenant.id)).json<Reports>().count;
    const text =
      'title: Wrong\nsource: mainframe\nblocks:\n  - id: a\n    chart: { sql: SELECT 1, spec: { mark: bar, data: { url: x } } }\n';
    const response = await api('POST', '/reports', a.writer, a.tenant.id, { definition: text });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'validation_failed',
      detail: [
        { loc: ['body', 'definition', 'source'], line: 2, column: 9 },
        { loc: ['body', 'definition', 'blocks', 0, 'chart', 'spec', 'data'], line: 5, column: 54 },
      ],
    });
    expect((await api('GET', '/reports', a.writer, a.tenant.id)).json<Reports>().count).toBe(before);
  });

  it('a save with a bad definition keeps the report as it was', async () => {
    const report = await createReport(definition('Stays'));
    const response = await api('PUT', `/reports/${report.id}`, a.writer, a.tenant.id, {
      definition: 'title: [',
      version: 1,
    });
    expect(response.statusCode).toBe(422);
    expect((await api('GET', `/reports/${report.id}`, a.writer, a.tenant.id)).json<ReportPublic>().version).toBe(1);
  });

  it('a 10 MB definition is a 413 before it is read, one just over the limit a 422', async () => {
    const huge = await api('POST', '/reports', a.writer, a.tenant.id, {
      definition: `title: ${'x'.repeat(10 * 1024 * 1024)}`,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'body_too_large' });
    const preview = await api('POST', '/preview', a.writer, a.tenant.id, {
      definition: `title: ${'x'.repeat(10 * 1024 * 1024)}`,
      block: 'a',
    });
    expect(preview.statusCode).toBe(413);
    const over = await api('POST', '/reports', a.writer, a.tenant.id, {
      definition: 'x'.repeat(REPORT_DEFINITION_MAX + 1),
    });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ detail: [{ loc: ['body', 'definition'] }] });
  });
});

describe('running a block: what is refused before the engine (STUDIO-REPORT-7)', () => {
  let report: ReportPublic;
  beforeAll(async () => {
    report = await createReport(definition('To run'));
  });

  const run = (body: object) => api('POST', `/reports/${report.id}/run`, a.reader, a.tenant.id, body);

  it('an unknown block, a text block, an unknown parameter, a value of the wrong type, a page over the page size', async () => {
    expect((await run({ block: 'nope' })).json()).toMatchObject({
      detail: [{ loc: ['body', 'block'], msg: 'The report has no block with this id' }],
    });
    expect((await run({ block: 'note' })).json()).toMatchObject({
      detail: [{ loc: ['body', 'block'], msg: 'A text block has no query to run' }],
    });
    const params = await run({ block: 'total', params: { code: '12345', min: 'lots', other: 1 } });
    expect(params.statusCode).toBe(422);
    expect(params.json<{ detail: { loc: unknown[] }[] }>().detail.map((item) => item.loc)).toEqual([
      ['body', 'params', 'other'],
      ['body', 'params', 'code'],
      ['body', 'params', 'min'],
    ]);
    expect((await run({ block: 'detail', limit: 11 })).json()).toMatchObject({
      detail: [{ loc: ['body', 'limit'], msg: 'Limit must not exceed the block’s page size' }],
    });
    expect((await run({ block: 'detail', skip: -1 })).statusCode).toBe(422);
    expect((await run({ block: 'detail', sort: [{ column: 'payer', direction: 'sideways' }] })).statusCode).toBe(422);
  });

  it('a preview of a definition with problems is a 422 with their lines, for writers only', async () => {
    const response = await api('POST', '/preview', a.writer, a.tenant.id, {
      definition: 'title: P\nsource: demo\nblocks:\n  - id: a\n    kpi: { sql: SELECT 1 }\n',
      block: 'a',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      detail: [{ loc: ['body', 'definition', 'blocks', 0, 'kpi', 'value'], line: 5 }],
    });
    expect((await api('POST', '/preview', a.reader, a.tenant.id, { definition: 'x', block: 'a' })).statusCode).toBe(
      403,
    );
  });
});
