import type { TestContext, TestUser } from './harness.js';
import { tenantHeaders } from './tenant-fixtures.js';

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
