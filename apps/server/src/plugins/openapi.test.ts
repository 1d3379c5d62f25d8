import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { formatOpenApiDocument, OPENAPI_FILE } from '../../scripts/openapi.js';
import { API_PREFIX } from './swagger.js';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

interface Document {
  paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
}

async function servedDocument(ctx: TestContext): Promise<Document> {
  const response = await ctx.app.inject(`${API_PREFIX}/openapi.json`);
  expect(response.statusCode).toBe(200);
  return response.json<Document>();
}

/** Where two texts first differ, as a line number and both versions of that line. */
function firstDifference(actual: string, expected: string): string {
  const actualLines = actual.split('\n');
  const expectedLines = expected.split('\n');
  const index = actualLines.findIndex((line, at) => line !== expectedLines[at]);
  const at = index === -1 ? actualLines.length : index;
  return `line ${at + 1}: served ${JSON.stringify(actualLines[at])}, committed ${JSON.stringify(expectedLines[at])}`;
}

/**
 * The API as a public contract (decision 018): every operation is named, and the document clients
 * are generated from, packages/contract/openapi.json, is exactly what the server serves.
 */
describe('the OpenAPI document', () => {
  let ctx: TestContext;
  let document: Document;

  beforeAll(async () => {
    ctx = await createTestContext();
    document = await servedDocument(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('names every operation with a unique operationId, <tag>_<verb> in snake_case', () => {
    const seen = new Map<string, string>();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => HTTP_METHODS.has(method))
        .map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, ...operation })),
    );
    expect(operations.length).toBeGreaterThan(60);
    for (const { where, operationId, tags } of operations) {
      expect(operationId, `${where} has no operationId`).toBeTypeOf('string');
      expect(tags?.length, `${where} has no tag`).toBe(1);
      expect(operationId, where).toMatch(new RegExp(`^${tags?.[0]}(_[a-z0-9]+)+$`));
      expect(seen.get(operationId!), `${where} repeats the operationId of ${seen.get(operationId!)}`).toBeUndefined();
      seen.set(operationId!, where);
    }
  });

  it('is the committed packages/contract/openapi.json', () => {
    const served = formatOpenApiDocument(document);
    let committed = '';
    try {
      committed = readFileSync(OPENAPI_FILE, 'utf8');
    } catch {
      // Missing: reported below like any other difference.
    }
    expect(
      served === committed,
      `packages/contract/openapi.json differs from the document the server serves (${firstDifference(served, committed)}): run \`npm run openapi\` and commit the file`,
    ).toBe(true);
  });

  it('does not depend on whether payments go to Stripe or where the web app is served from', async () => {
    const other = await createTestContext({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_openapi',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_openapi',
        STRIPE_WEBHOOK_SECRET: 'whsec_openapi',
        STRIPE_API_BASE: 'http://127.0.0.1:9',
        FRONTEND_HOST: 'http://localhost:5173',
        RENEWAL_POLL_INTERVAL_SECONDS: '0',
      },
    });
    try {
      expect(formatOpenApiDocument(await servedDocument(other))).toBe(formatOpenApiDocument(document));
    } finally {
      await other.close();
    }
  });
});
