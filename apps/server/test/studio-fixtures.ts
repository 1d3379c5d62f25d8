import { PERMISSIONS, type ReportPublic, type TenantPublic } from '@dataplatform/contract';
import { beforeAll, expect } from 'vitest';
import { createRole } from './authz-fixtures.js';
import { createUser, type TestContext, type TestUser } from './harness.js';
import { createTenant, tenantHeaders } from './tenant-fixtures.js';

/** A call of Studio's API (`/api/v1/studio…`) as `user`, in `tenantId` when given. */
export function studioApi(ctx: TestContext) {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    user: TestUser,
    tenantId?: string,
    payload?: unknown,
  ) =>
    ctx.app.inject({
      method,
      url: `/api/v1/studio${url}`,
      headers: tenantHeaders(user, tenantId),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** A tenant of Studio's tests and its two members: one holding reports:write, one only reading. */
export interface WritingTenant {
  tenant: TenantPublic;
  writer: TestUser;
  reader: TestUser;
}

/** Makes a WritingTenant named `name` before the file's tests; its fields are set once they start. */
export function useWritingTenant(ctx: TestContext, admin: TestUser, name: string): WritingTenant {
  const made = {} as WritingTenant;
  beforeAll(async () => {
    made.writer = await createUser(ctx);
    made.reader = await createUser(ctx);
    await createRole(ctx, { grants: [PERMISSIONS.reportsWrite], userIds: [made.writer.id] });
    made.tenant = await createTenant(ctx, admin, { name, members: [made.writer, made.reader] });
  });
  return made;
}

/** Writes a report of `definition` through the API as `author`, in `tenantId`; the test fails unless it is created. */
export async function createReport(
  ctx: TestContext,
  author: TestUser,
  tenantId: string,
  definition: string,
): Promise<ReportPublic> {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/studio/reports',
    headers: tenantHeaders(author, tenantId),
    payload: { definition },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<ReportPublic>();
}

/** A report on the demo source with a KPI, a table and a text block; `extra` ends the text. */
export const reportDefinition = (title: string, extra = '') => `title: ${title}
source: demo
cache: 5m
params:
  code: { type: select, options: ["99213", "70450"], default: "99213" }
  min: { type: number, default: 0 }
blocks:
  - id: total
    kpi: { sql: "SELECT count(*) AS n FROM rates WHERE billing_code = :code AND negotiated_rate >= :min", value: n }
  - id: detail
    table: { sql: "SELECT payer, negotiated_rate FROM rates WHERE billing_code = :code", page_size: 10 }
  - id: note
    text: Hello${extra}
`;

/**
 * A report on the demo source with a text parameter `code` (default 99213) and a KPI `total` that
 * counts that code's rates; `blocks` (YAML list items) follow it.
 */
export const codeReportDefinition = (title: string, blocks: string) => `title: ${title}
source: demo
params:
  code:
    type: text
    default: "99213"
blocks:
  - id: total
    kpi:
      sql: SELECT count(*) AS n FROM rates WHERE billing_code = :code
      value: n
${blocks}`;
