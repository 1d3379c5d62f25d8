import { ERROR_STATUS, isErrorCode } from '@dataplatform/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext } from '../harness.js';

/**
 * Requests generated from the OpenAPI document: every operation, as an anonymous caller, a plain
 * user and a superuser, with wrong types, missing and extra fields, boundary lengths, unicode and
 * control characters, malformed path parameters and wrong content types. Seeded, so a failure
 * reproduces. Never a 5xx; every 4xx a JSON `detail` and a `code` of that status; no 2xx for input
 * the document calls invalid.
 */
const SEED = 12;
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 300);
/** Only the operations whose path contains this (say `/studio/extracts`), to fuzz one area quickly. */
const ONLY = process.env.FUZZ_ONLY;

interface Schema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  nullable?: boolean;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
}

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { schema: Schema; contentTypes: string[] };
  /** A body that is a file (a Studio extract upload): the content types it declares. */
  binary?: string[];
}

/** An input and, when the document says it is invalid, why. */
interface Generated<T> {
  value: T;
  invalid?: string;
}

const jsonTypeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

/** Whether `value` has a JSON type `schema` allows (only for schemas that declare one). */
function typeMatches(schema: Schema, value: unknown): boolean {
  const actual = jsonTypeOf(value);
  if (actual === 'null') return schema.nullable === true;
  if (schema.type === 'number') return actual === 'number' || actual === 'integer';
  return actual === schema.type;
}

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.array(fc.array(fc.integer(), { maxLength: 2 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

/** Text a hostile client might send: any code point, control characters, NUL, very long runs. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    '\u0007\u001b[31m',
    '\ud83d\ude00'.repeat(3),
    '\u202e',
    '../../etc/passwd',
    "' OR 1=1 --",
    ' ',
  ),
  fc.nat({ max: 5000 }).map((length) => 'é'.repeat(length)),
);

function validValue(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => validValue(option, depth + 1)));
  switch (schema.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case 'string': {
      if (schema.format === 'email') return fc.nat().map((n) => `fuzz-${n}@example.com`);
      if (schema.format === 'uuid') return fc.uuid({ version: 4 });
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 64, 64);
      return fc.string({ minLength: Math.min(min, max), maxLength: Math.max(min, max) });
    }
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(validValue(schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectOf(schema, depth + 1).map((generated) => generated.value);
    default:
      return anyJson;
  }
}

/** A property's value: mostly valid, sometimes of the wrong type, too long, or hostile text. */
function propertyValue(schema: Schema, depth: number): fc.Arbitrary<Generated<unknown>> {
  const options: fc.WeightedArbitrary<Generated<unknown>>[] = [
    { weight: 6, arbitrary: validValue(schema, depth).map((value) => ({ value })) },
  ];
  if (schema.type) {
    options.push({
      weight: 2,
      arbitrary: anyJson
        .filter((value) => !typeMatches(schema, value))
        .map((value) => ({ value, invalid: `wrong type ${jsonTypeOf(value)} for ${schema.type}` })),
    });
  }
  if (schema.type === 'string') {
    options.push({ weight: 2, arbitrary: hostileText.map((value) => ({ value })) });
    if (schema.maxLength !== undefined) {
      const max = schema.maxLength;
      options.push({ weight: 1, arbitrary: fc.constant({ value: 'x'.repeat(max) }) });
      options.push({
        weight: 1,
        arbitrary: fc.constant({ value: 'x'.repeat(max + 1), invalid: 'longer than maxLength' }),
      });
    }
  }
  return fc.oneof(...options);
}

function objectOf(schema: Schema, depth = 0): fc.Arbitrary<Generated<Record<string, unknown>>> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  return fc
    .tuple(
      fc.tuple(
        ...properties.map(([, property]) => fc.option(propertyValue(property, depth), { nil: undefined, freq: 6 })),
      ),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), anyJson, { maxKeys: 2 }),
    )
    .map(([values, extra]) => {
      const value: Record<string, unknown> = {};
      let invalid: string | undefined;
      properties.forEach(([name, property], index) => {
        const generated = values[index];
        if (generated === undefined) {
          if (required.has(name) && property.default === undefined) invalid ??= `missing required ${name}`;
          return;
        }
        value[name] = generated.value;
        if (generated.invalid) invalid ??= `${name}: ${generated.invalid}`;
      });
      // Extra fields only where they cannot replace a declared one.
      for (const [key, extraValue] of Object.entries(extra)) {
        if (!(key in (schema.properties ?? {})) && key !== '__proto__') value[key] = extraValue;
      }
      return invalid ? { value, invalid } : { value };
    });
}

function bodyOf(schema: Schema): fc.Arbitrary<Generated<unknown>> {
  if (schema.type !== 'object') return propertyValue(schema, 0);
  return fc.oneof(
    { weight: 8, arbitrary: objectOf(schema) },
    {
      weight: 1,
      arbitrary: anyJson
        .filter((value) => jsonTypeOf(value) !== 'object')
        .map((value) => ({ value, invalid: 'body is not an object' })),
    },
  );
}

function pathValue(parameter: Parameter): fc.Arbitrary<Generated<string>> {
  if (parameter.schema.format !== 'uuid') {
    return fc.oneof(
      fc.string({ minLength: 1, maxLength: 30 }).map((value) => ({ value })),
      hostileText.filter((value) => value.length > 0 && value !== '.' && value !== '..').map((value) => ({ value })),
    );
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.uuid({ version: 4 }).map((value) => ({ value })) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.string({ minLength: 1, maxLength: 40 }), hostileText, fc.constantFrom('0', '-1', 'null', '%', '...'))
        // "." and ".." are dot segments: URL parsing (inject's, like any client's) resolves them
        // away, so the request would reach another route instead of testing this parameter.
        .filter((value) => value.length > 0 && value !== '.' && value !== '..' && !/^[0-9a-f-]{36}$/i.test(value))
        .map((value) => ({ value, invalid: 'path parameter is not a uuid' })),
    },
  );
}

function queryValue(parameter: Parameter): fc.Arbitrary<Generated<string> | undefined> {
  const schema = parameter.schema;
  const options: fc.Arbitrary<Generated<string> | undefined>[] = [
    fc.constant(undefined),
    validValue(schema).map((value) => ({ value: String(value) })),
    hostileText.map((value) => ({ value })),
  ];
  // A value the pattern admits (an extract's table name), so the request gets past validation.
  if (schema.pattern) options.push(fc.stringMatching(new RegExp(schema.pattern)).map((value) => ({ value })));
  if (schema.type === 'integer') {
    options.push(
      fc.constantFrom('abc', '1.5', '', '1e400', '-1').map((value) => ({
        value,
        invalid: value === '-1' && (schema.minimum ?? -Infinity) <= -1 ? undefined : 'not an integer in range',
      })),
    );
  }
  return fc.oneof(...options);
}

type Caller = 'anonymous' | 'plain' | 'superuser';

const BODY_MODES = [
  'json',
  'json',
  'json',
  'json',
  'json',
  'json',
  'malformed',
  'text/plain',
  'application/xml',
  'none',
] as const;

function requestOf(operation: Operation) {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  return fc.record({
    caller: fc.constantFrom<Caller>('anonymous', 'plain', 'superuser'),
    path: fc.tuple(...pathParameters.map(pathValue)),
    query: fc.tuple(...queryParameters.map(queryValue)),
    body: operation.body ? bodyOf(operation.body.schema) : fc.constant(undefined),
    mode: fc.constantFrom(...BODY_MODES),
    file: operation.binary
      ? fc.record({
          bytes: fc.oneof(
            fc.uint8Array({ maxLength: 2000 }),
            fc
              .array(fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 4 }), {
                maxLength: 30,
              })
              .map((rows) => new TextEncoder().encode(rows.map((row) => row.join(',')).join('\n'))),
            fc.constant(new TextEncoder().encode('PAR1')),
          ),
          type: fc.constantFrom(...operation.binary, 'application/json', 'text/plain', 'application/octet-stream'),
        })
      : fc.constant(undefined),
  });
}

function operationsOf(document: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, raw]) => {
      const content = (raw.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      const jsonSchema = content?.['application/json']?.schema;
      return {
        method: method.toUpperCase(),
        path,
        parameters: (raw.parameters as Parameter[] | undefined) ?? [],
        ...(jsonSchema ? { body: { schema: jsonSchema, contentTypes: Object.keys(content ?? {}) } } : {}),
        ...(content && !jsonSchema ? { binary: Object.keys(content) } : {}),
      };
    }),
  );
}

function isDetail(response: LightMyRequestResponse): boolean {
  try {
    const body = response.json<{ detail?: unknown }>();
    if (typeof body.detail === 'string') return body.detail.length > 0;
    return (
      Array.isArray(body.detail) &&
      body.detail.length > 0 &&
      body.detail.every(
        (item: { loc?: unknown; msg?: unknown }) => Array.isArray(item.loc) && typeof item.msg === 'string',
      )
    );
  } catch {
    return false;
  }
}

/** The answer's `code` is one of the contract's, and the contract gives it this status. */
function hasCodeOfStatus(response: LightMyRequestResponse): boolean {
  try {
    const { code } = response.json<{ code?: unknown }>();
    return isErrorCode(code) && ERROR_STATUS[code] === response.statusCode;
  } catch {
    return false;
  }
}

describe('fuzzing every operation of the OpenAPI document', () => {
  let ctx: TestContext;
  let operations: Operation[];
  /** A tenant the superuser names in X-Tenant-ID for file uploads, so they reach the file's reader. */
  let tenantId: string;
  const totals = { requests: 0, invalid: 0, statuses: {} as Record<string, number> };

  beforeAll(async () => {
    ctx = await createTestContext({ env: { RENEWAL_POLL_INTERVAL_SECONDS: '0' } });
    operations = operationsOf((await ctx.app.inject('/api/v1/openapi.json')).json());
    const owner = await createUser(ctx, { isSuperuser: true });
    const tenant = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/tenants/',
      headers: owner.headers,
      payload: { name: `fuzz-${Date.now()}` },
    });
    tenantId = tenant.json<{ id: string }>().id;
  });
  afterAll(async () => {
    process.stdout.write(
      `[fuzz] seed=${SEED} operations=${operations.length} requests=${totals.requests} invalid=${totals.invalid} statuses=${JSON.stringify(totals.statuses)}\n`,
    );
    await ctx.close();
  });

  it('covers the whole document', () => {
    expect(operations.length).toBeGreaterThan(50);
  });

  it('answers every generated request without a 5xx, with a detail for every 4xx, and no 2xx for invalid input', async () => {
    const problems: string[] = [];
    for (const operation of operations.filter((candidate) => !ONLY || candidate.path.includes(ONLY))) {
      // Fresh callers per operation: one that logs out or deletes itself ends only its own session.
      const plain = await createUser(ctx);
      const superuser = await createUser(ctx, { isSuperuser: true });
      const headersOf = { anonymous: {}, plain: plain.headers, superuser: superuser.headers };
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(requestOf(operation), async (input) => {
          runs += 1;
          let invalid: string | undefined;
          const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
          let url = operation.path;
          pathParameters.forEach((parameter, index) => {
            const generated = input.path[index]!;
            invalid ??= generated.invalid;
            url = url.replace(`{${parameter.name}}`, encodeURIComponent(generated.value));
          });
          const query = new URLSearchParams();
          operation.parameters
            .filter((parameter) => parameter.in === 'query')
            .forEach((parameter, index) => {
              const generated = input.query[index];
              if (!generated) return;
              invalid ??= generated.invalid;
              query.set(parameter.name, generated.value);
            });
          if (query.size > 0) url += `?${query.toString()}`;

          const headers: Record<string, string> = { ...headersOf[input.caller] };
          let payload: string | undefined;
          if (operation.body) {
            invalid ??= input.body?.invalid;
            const text = JSON.stringify(input.body?.value);
            if (input.mode === 'json') {
              headers['content-type'] = 'application/json';
              payload = text;
            } else if (input.mode === 'malformed') {
              headers['content-type'] = 'application/json';
              payload = text.slice(0, Math.max(1, text.length - 1)) + '{';
              invalid ??= 'malformed JSON';
            } else if (input.mode === 'none') {
              invalid ??= operation.body.schema.type === 'object' ? 'no body' : undefined;
            } else {
              headers['content-type'] = input.mode;
              payload = text;
              invalid ??= `content type ${input.mode}`;
            }
          }
          if (operation.binary && input.file) {
            headers['content-type'] = input.file.type;
            payload = Buffer.from(input.file.bytes).toString('latin1');
            if (!operation.binary.includes(input.file.type)) invalid ??= `content type ${input.file.type}`;
            if (input.caller === 'superuser') headers['x-tenant-id'] = tenantId;
          }
          const response = await ctx.app.inject({
            method: operation.method as 'GET',
            url,
            headers,
            ...(payload === undefined ? {} : { payload }),
          });
          totals.requests += 1;
          if (invalid) totals.invalid += 1;
          totals.statuses[response.statusCode] = (totals.statuses[response.statusCode] ?? 0) + 1;
          const where = `${operation.method} ${operation.path} as ${input.caller}: ${response.statusCode} for ${url} ${payload?.slice(0, 200) ?? ''}`;
          if (response.statusCode >= 500) problems.push(`5xx ${where} ${response.body.slice(0, 200)}`);
          else if (response.statusCode >= 400 && !isDetail(response))
            problems.push(`no detail ${where} ${response.body.slice(0, 200)}`);
          else if (response.statusCode >= 400 && !hasCodeOfStatus(response))
            problems.push(`no code of its status ${where} ${response.body.slice(0, 200)}`);
          else if (response.statusCode < 300 && invalid) problems.push(`2xx for invalid input (${invalid}) ${where}`);
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
      expect(runs, `${operation.method} ${operation.path}`).toBe(RUNS_PER_OPERATION);
    }
    const kinds: Record<string, number> = {};
    for (const problem of problems) {
      const key = problem.replace(/ as \w+: \d{3} for .*$/, '');
      kinds[key] = (kinds[key] ?? 0) + 1;
    }
    process.stdout.write(`[fuzz] problems=${problems.length} ${JSON.stringify(kinds)}\n`);
    expect(problems.slice(0, 20)).toEqual([]);
  }, 600_000);
});
