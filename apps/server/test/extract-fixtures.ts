import { expect } from 'vitest';
import type { TestContext, TestUser } from './harness.js';
import { tenantHeaders } from './tenant-fixtures.js';

/** An extract upload to `on`'s app as `user`. */
export function uploadExtract(
  on: TestContext,
  user: TestUser,
  tenantId: string | undefined,
  name: string,
  body: Buffer | string,
  contentType = 'text/csv',
) {
  return on.app.inject({
    method: 'POST',
    url: `/api/v1/studio/extracts?name=${encodeURIComponent(name)}`,
    headers: tenantHeaders(user, tenantId, { 'content-type': contentType }),
    payload: body,
  });
}

/** Uploads a CSV extract as `user`, in `tenantId`; the test fails unless it is made. */
export async function uploadCsvOk(on: TestContext, user: TestUser, tenantId: string, name: string, csv: string) {
  const response = await uploadExtract(on, user, tenantId, name, csv);
  expect(response.statusCode, response.body).toBe(201);
}

/** The tenant's extracts as `user` sees them on `on`'s app. */
export function listExtracts(on: TestContext, user: TestUser, tenantId: string) {
  return on.app.inject({ url: '/api/v1/studio/extracts', headers: tenantHeaders(user, tenantId) });
}

/** A CSV of `lines` sales (region, units, price, sold_on), the same every time. */
export function salesCsv(lines: number): string {
  const rows = ['region,units,price,sold_on'];
  for (let i = 0; i < lines; i += 1) {
    rows.push(
      `${['north', 'south', 'east'][i % 3]},${i % 7},${(i % 100) + 0.5},2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
    );
  }
  return `${rows.join('\n')}\n`;
}
