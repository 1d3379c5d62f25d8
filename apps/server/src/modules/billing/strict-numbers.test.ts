import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext, type TestUser } from '../../../test/harness.js';

/** JSON bodies are validated as the OpenAPI document describes them: no coercion of types. */
describe('numbers in JSON bodies', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { RENEWAL_POLL_INTERVAL_SECONDS: '0' } });
    user = await createUser(ctx);
  });
  afterAll(() => ctx.close());

  it('refuses a card expiry given as a boolean, a string or an array, and names the field', async () => {
    for (const [field, value] of [
      ['exp_month', true],
      ['exp_month', '5'],
      ['exp_month', [[1]]],
      ['exp_month', 5.5],
      ['exp_year', '2099'],
      ['exp_year', null],
    ] as const) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/subscriptions/sandbox/payment-methods',
        headers: user.headers,
        payload: { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123', [field]: value },
      });
      expect(response.statusCode, `${field}=${JSON.stringify(value)}`).toBe(422);
      const detail = response.json<{ detail: { loc: unknown[] }[] }>().detail;
      expect(detail.map((item) => item.loc)).toContainEqual(['body', field]);
    }
  });

  it('documents them as integers', async () => {
    const document = (await ctx.app.inject('/api/v1/openapi.json')).json<{
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    }>();
    const schema = JSON.stringify(
      document.paths['/api/v1/subscriptions/sandbox/payment-methods']?.post.requestBody.content['application/json']
        ?.schema,
    );
    expect(schema).toContain('"exp_month":{"type":"integer"');
  });
});
