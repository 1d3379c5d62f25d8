import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext, type TestUser } from '../harness.js';

/**
 * Fuzzing from the OpenAPI document: every operation it lists, called by an anonymous caller, a
 * plain user and a superuser with inputs fast-check derives from the operation's own schemas —
 * wrong types, missing and extra fields, lengths just past each bound, unicode and control
 * characters, malformed path and query parameters, bodies that are not objects or not JSON, and
 * wrong content types. Whatever comes in: never a 5xx, every 4xx a JSON `detail` a client can read,
 * and no 2xx for input the document says is invalid. Seeded, so a failure replays exactly.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 300);

interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  parameters: Parameter[];
  jsonBody: JsonSchema | undefined;
  bodyTypes: string[];
}

/** One generated request, and whether the document makes it invalid (then it must not succeed). */
interface Case {
  category: string;
  invalid: boolean;
  pathParams: Record<string, string>;
  rawPath?: boolean;
  query: Record<string, string>;
  contentType?: string;
  payload?: string;
}

const ctx: TestContext = await createTestContext();
afterAll(() => ctx.close());

const document = (await ctx.app.inject('/api/v1/openapi.json')).json<{
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>
  >;
}>();

const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => {
    const content = operation.requestBody?.content ?? {};
    return {
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase() as Operation['method'],
      path,
      parameters: operation.parameters ?? [],
      jsonBody: content['application/json']?.schema,
      bodyTypes: Object.keys(content),
    };
  }),
);

// ---------------------------------------------------------------------------------------------
// Values the schema accepts, and values it refuses

function typesOf(schema: JsonSchema): string[] {
  if (schema.anyOf ?? schema.oneOf) return [...new Set((schema.anyOf ?? schema.oneOf)!.flatMap(typesOf))];
  if (schema.allOf) return [...new Set(schema.allOf.flatMap(typesOf))];
  if (schema.enum) return [...new Set(schema.enum.map((value) => (value === null ? 'null' : typeof value)))];
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return schema.nullable ? [...types, 'null'] : types;
}

/** A value the schema accepts, as plain as possible. */
function validValue(schema: JsonSchema): unknown {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return validValue(options.find((option) => !typesOf(option).includes('null')) ?? options[0]!);
  if (schema.allOf) return validValue(Object.assign({}, ...schema.allOf));
  if (schema.enum) return schema.enum[0];
  const type = typesOf(schema).find((candidate) => candidate !== 'null');
  switch (type) {
    case 'string': {
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.pattern?.includes('\\d')) return '10';
      return 'a'.repeat(Math.max(schema.minLength ?? 1, Math.min(8, schema.maxLength ?? 8)));
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return schema.minItems ? Array.from({ length: schema.minItems }, () => validValue(schema.items ?? {})) : [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([name]) => schema.required?.includes(name))
          .map(([name, property]) => [name, validValue(property)]),
      );
    default:
      return null;
  }
}

/** JSON values of a type the schema does not allow. */
function wrongTypeValue(schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
  const allowed = new Set(typesOf(schema));
  if (allowed.size === 0) return undefined;
  if (allowed.has('number')) allowed.add('integer');
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (!allowed.has('string')) candidates.push(fc.constantFrom('5', 'true', '', '1e3'), fc.string());
  if (!allowed.has('integer') && !allowed.has('number')) candidates.push(fc.integer(), fc.double({ noNaN: true }));
  if (!allowed.has('boolean')) candidates.push(fc.boolean());
  if (!allowed.has('null')) candidates.push(fc.constant(null));
  if (!allowed.has('array')) candidates.push(fc.constantFrom([], [[1]], ['a']));
  if (!allowed.has('object')) candidates.push(fc.constantFrom({}, { a: 1 }));
  if (allowed.has('integer') && !allowed.has('number')) candidates.push(fc.constantFrom(1.5, -0.25));
  return candidates.length === 0 ? undefined : fc.oneof(...candidates);
}

/** Values just outside a bound of the schema. */
function outOfBoundValues(schema: JsonSchema): unknown[] {
  const values: unknown[] = [];
  const types = typesOf(schema);
  if (types.includes('string') && !schema.enum) {
    if (schema.maxLength !== undefined) values.push('b'.repeat(schema.maxLength + 1));
    if (schema.minLength !== undefined && schema.minLength > 0) values.push('b'.repeat(schema.minLength - 1));
  }
  if (types.includes('integer') || types.includes('number')) {
    if (typeof schema.minimum === 'number') values.push(schema.minimum - 1);
    if (typeof schema.maximum === 'number') values.push(schema.maximum + 1);
  }
  if (schema.enum && types.includes('string')) values.push('not-one-of-them');
  return values;
}

/** Text a person or an attacker might type: any unicode, control characters, NUL, lone surrogates. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({
    unit: fc.constantFrom('\u0000', '\u0007', '\u001b', '\u202e', '\ufeff', '\ud800', 'é', '😀', '<', "'", '"', '\\'),
    maxLength: 40,
  }),
  fc.constantFrom("' OR 1=1 --", '<script>alert(1)</script>', '../../etc/passwd', '%00', '${jndi:x}', '\u0000'),
);

// ---------------------------------------------------------------------------------------------
// Records that exist, so a well-formed request reaches the service and its rules, not only a 404

/** Bodies whose rules go beyond the schema (a card number that passes Luhn, say). */
const EXAMPLE_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/v1/subscriptions/sandbox/payment-methods': {
    number: '4242424242424242',
    exp_month: 12,
    exp_year: 2035,
    cvc: '123',
  },
};

/** Fresh records for one operation's run, named by the path parameter that takes their id. */
async function createFixtures(superuser: TestUser): Promise<Record<string, string>> {
  const post = async (url: string, payload: Record<string, unknown>) => {
    const response = await ctx.app.inject({ method: 'POST', url, headers: superuser.headers, payload });
    if (response.statusCode !== 201) throw new Error(`fixture ${url}: ${response.statusCode} ${response.body}`);
    return response.json<{ id: string }>().id;
  };
  const suffix = randomUUID().slice(0, 8);
  const target = await createUser(ctx);
  return {
    user_id: target.id,
    role_id: await post('/api/v1/authorization/roles', { name: `fuzz-role-${suffix}` }),
    permission_id: await post('/api/v1/authorization/permissions', { name: `fuzz:permission-${suffix}` }),
    tenant_id: await post('/api/v1/tenants/', { name: `Fuzz tenant ${suffix}` }),
    plan_id: await post('/api/v1/subscriptions/plans', {
      name: `Fuzz plan ${suffix}`,
      description: 'A plan the fuzzer made',
      price: '9.99',
      billing_period: 'monthly',
      features: ['one'],
      is_active: true,
    }),
    email: target.email,
  };
}

// ---------------------------------------------------------------------------------------------
// Requests

function pathParamValue(
  parameter: Parameter,
  fixtures: Record<string, string>,
): fc.Arbitrary<{ value: string; invalid: boolean; raw: boolean }> {
  const made = String(validValue(parameter.schema ?? { type: 'string' }));
  const existing = fixtures[parameter.name];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ value: existing ?? made, invalid: false, raw: false }) },
    fc.constant({ value: made, invalid: false, raw: false }),
    hostileText.filter((text) => text.length > 0).map((value) => ({ value, invalid: false, raw: false })),
    fc
      .constantFrom('..', '%', '%zz', '%00', 'a/b', '?x=1', '#', ' ', 'x'.repeat(3000))
      .map((value) => ({ value, invalid: false, raw: true })),
  );
}

function queryValue(parameter: Parameter): fc.Arbitrary<{ value: string | undefined; invalid: boolean }> {
  const schema = parameter.schema ?? {};
  const types = typesOf(schema);
  const options: fc.Arbitrary<{ value: string | undefined; invalid: boolean }>[] = [
    fc.constant({ value: undefined, invalid: false }),
    fc.constant({ value: String(validValue(schema)), invalid: false }),
    hostileText.map((value) => ({ value, invalid: false })),
  ];
  if (types.includes('integer')) {
    options.push(
      fc.constantFrom('-1', 'abc', '1.5', '1e999', '99999999999999999999', '', ' 1').map((value) => ({
        value,
        invalid:
          value !== '' &&
          !(typeof schema.minimum === 'number' && Number(value) >= schema.minimum && Number.isInteger(Number(value))),
      })),
    );
  }
  for (const value of outOfBoundValues(schema)) options.push(fc.constant({ value: String(value), invalid: true }));
  return fc.oneof(...options);
}

/** A JSON body mutated one way from a valid one. */
function bodyCase(
  schema: JsonSchema,
  example: Record<string, unknown> | undefined,
): fc.Arbitrary<{ category: string; body: unknown; invalid: boolean }> {
  const base = example ?? (validValue(schema) as Record<string, unknown>);
  const properties = Object.entries(schema.properties ?? {});
  const wrongRoot = wrongTypeValue(schema);
  const required = schema.required ?? [];
  const options: fc.Arbitrary<{ category: string; body: unknown; invalid: boolean }>[] = [
    fc.constant({ category: 'valid-shaped body', body: base, invalid: false }),
    ...(typesOf(schema).includes('object')
      ? [
          fc
            .constantFrom<unknown>([], [base], 0, 'text', null, true)
            .map((body) => ({ category: 'body of the wrong type', body, invalid: true })),
        ]
      : []),
    ...(wrongRoot && !typesOf(schema).includes('object')
      ? [wrongRoot.map((body) => ({ category: 'body of the wrong type', body, invalid: true }))]
      : []),
    fc
      .dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 })
      .map((extra) => ({ category: 'extra fields', body: { ...extra, ...base }, invalid: false })),
  ];
  for (const name of required) {
    const body = { ...base };
    delete body[name];
    options.push(fc.constant({ category: 'missing required field', body, invalid: true }));
  }
  for (const [name, property] of properties) {
    const wrong = wrongTypeValue(property);
    if (wrong)
      options.push(wrong.map((value) => ({ category: 'wrong type', body: { ...base, [name]: value }, invalid: true })));
    for (const value of outOfBoundValues(property)) {
      options.push(fc.constant({ category: 'out of bounds', body: { ...base, [name]: value }, invalid: true }));
    }
    if (typesOf(property).includes('string')) {
      options.push(
        hostileText.map((value) => ({ category: 'hostile text', body: { ...base, [name]: value }, invalid: false })),
      );
    }
  }
  return fc.oneof(...options);
}

function caseFor(operation: Operation, fixtures: Record<string, string>): fc.Arbitrary<Case> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  const path = fc.tuple(...pathParameters.map((parameter) => pathParamValue(parameter, fixtures)));
  const query = fc.tuple(...queryParameters.map(queryValue));
  const body: fc.Arbitrary<Pick<Case, 'category' | 'invalid' | 'contentType' | 'payload'>> = operation.jsonBody
    ? fc.oneof(
        {
          weight: 6,
          arbitrary: bodyCase(operation.jsonBody, EXAMPLE_BODIES[operation.key]).map(
            ({ category, body: value, invalid }) => ({
              category,
              invalid,
              contentType: 'application/json',
              payload: JSON.stringify(value),
            }),
          ),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom('{"a":', '{', 'nul', '[1,2', '{"a":1}}', '\u0000').map((payload) => ({
            category: 'malformed JSON',
            invalid: true,
            contentType: 'application/json',
            payload,
          })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x')
            .filter((type) => !operation.bodyTypes.includes(type))
            .map((contentType) => ({
              category: 'wrong content type',
              invalid: true,
              contentType,
              payload: JSON.stringify(EXAMPLE_BODIES[operation.key] ?? validValue(operation.jsonBody!)),
            })),
        },
      )
    : fc.constant({ category: 'no body', invalid: false });
  return fc.tuple(path, query, body).map(([pathValues, queryValues, request]) => {
    const pathParams = Object.fromEntries(
      pathParameters.map((parameter, index) => [parameter.name, pathValues[index]!.value]),
    );
    const queryEntries = queryParameters
      .map((parameter, index) => [parameter.name, queryValues[index]!] as const)
      .filter(([, value]) => value.value !== undefined);
    const invalidQuery = queryEntries.some(([, value]) => value.invalid);
    return {
      ...request,
      category: invalidQuery ? 'invalid query' : request.category,
      invalid: request.invalid || invalidQuery,
      pathParams,
      rawPath: pathValues.some((value) => value.raw),
      query: Object.fromEntries(queryEntries.map(([name, value]) => [name, value.value!])),
    };
  });
}

function urlOf(operation: Operation, request: Case): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.pathParams[name] ?? '';
    // A lone surrogate cannot be encoded: it goes as the replacement character a browser would send.
    return request.rawPath ? value : encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
  });
  const search = new URLSearchParams(request.query).toString();
  return search === '' ? path : `${path}?${search}`;
}

/** What is wrong with an answer, or undefined. */
function problemWith(response: LightMyRequestResponse, request: Case): string | undefined {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}`;
  if (status >= 400) {
    if (!String(response.headers['content-type'] ?? '').startsWith('application/json')) return `${status} is not JSON`;
    let detail: unknown;
    try {
      detail = response.json<{ detail?: unknown }>().detail;
    } catch {
      return `${status} body is not JSON`;
    }
    const readable =
      (typeof detail === 'string' && detail !== '') ||
      (Array.isArray(detail) &&
        detail.length > 0 &&
        detail.every(
          (item: { msg?: unknown }) => typeof item === 'object' && item !== null && typeof item.msg === 'string',
        ));
    if (!readable) return `${status} has no readable detail`;
    return undefined;
  }
  if (status >= 200 && status < 300 && request.invalid)
    return `accepted invalid input (${request.category}) with ${status}`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------

type Persona = 'anonymous' | 'plain user' | 'superuser';
const PERSONAS: Persona[] = ['anonymous', 'plain user', 'superuser'];

const totals = { requests: 0, byStatus: new Map<string, number>(), byCategory: new Map<string, number>() };
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

describe('fuzzing every operation of the OpenAPI document', () => {
  it('covers the whole document', () => {
    expect(operations.length).toBeGreaterThan(60);
  });

  describe.each(operations)('$key', (operation) => {
    it(`answers ${RUNS_PER_OPERATION} generated requests without a 5xx, with a readable detail on every 4xx and no 2xx for invalid input`, async () => {
      // Fresh callers and records per operation: some operations sign out or delete the caller.
      const users: Record<Persona, TestUser | undefined> = {
        anonymous: undefined,
        'plain user': await createUser(ctx),
        superuser: await createUser(ctx, { isSuperuser: true }),
      };
      const fixtures = await createFixtures(users.superuser!);
      const requests = fc.sample(caseFor(operation, fixtures), {
        seed: SEED + operation.key.length,
        numRuns: RUNS_PER_OPERATION,
      });
      const problems: string[] = [];
      for (const [index, request] of requests.entries()) {
        const persona = PERSONAS[index % PERSONAS.length]!;
        const headers: Record<string, string> = { ...(users[persona]?.headers ?? {}) };
        if (request.contentType) headers['content-type'] = request.contentType;
        const response = await ctx.app.inject({
          method: operation.method,
          url: urlOf(operation, request),
          headers,
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        totals.requests += 1;
        bump(totals.byStatus, `${Math.floor(response.statusCode / 100)}xx`);
        bump(totals.byCategory, request.category);
        if (process.env.FUZZ_DEBUG && request.category === 'valid-shaped body' && persona === 'superuser')
          process.stdout.write(`BASE ${operation.key} ${response.statusCode} ${response.body.slice(0, 120)}\n`);
        const problem = problemWith(response, request);
        if (problem && problems.length < 5) {
          problems.push(
            `${persona}: ${problem}: ${request.category} ${operation.method} ${urlOf(operation, request).slice(0, 200)} ${String(request.payload ?? '').slice(0, 200)} -> ${response.body.slice(0, 200)}`,
          );
        }
      }
      expect(problems).toEqual([]);
    });
  });

  afterAll(() => {
    const line = (map: Map<string, number>) =>
      [...map.entries()]
        .sort()
        .map(([key, count]) => `${key} ${count}`)
        .join(', ');
    process.stdout.write(
      `\nfuzz: ${totals.requests} requests over ${operations.length} operations (seed ${SEED})\n` +
        `fuzz: by status: ${line(totals.byStatus)}\n` +
        `fuzz: by input: ${line(totals.byCategory)}\n`,
    );
  });
});
