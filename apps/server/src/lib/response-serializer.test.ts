import { UserMeSchema } from '@dataplatform/contract';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isSameBothWays, responseSerializerCompiler } from './response-serializer.js';

const route = { method: 'GET', url: '/answer' };
const serializerFor = (schema: unknown) => responseSerializerCompiler({ ...route, schema });

const me = {
  id: '0b6f7a2e-8a0c-4f3e-9a57-5b7b1c9b2a11',
  email: 'someone@example.com',
  full_name: 'Some One',
  is_active: true,
  is_superuser: false,
  email_verified: true,
  created_at: '2026-11-25T10:00:00.000Z',
  roles: ['download_reports'],
};

describe('responseSerializerCompiler', () => {
  it('writes an answer that fits its schema as JSON, exactly as zod encodes it', () => {
    const written = serializerFor(UserMeSchema)(me);
    expect(JSON.parse(written)).toEqual(me);
    expect(written).toBe(JSON.stringify(z.encode(UserMeSchema, me)));
  });

  it('leaves out every field the schema does not name', () => {
    const written = serializerFor(UserMeSchema)({ ...me, hashed_password: '$argon2id$secret' });
    expect(written).not.toContain('hashed_password');
    expect(written).not.toContain('secret');
  });

  it('refuses an answer that does not fit, naming the route', () => {
    let thrown: unknown;
    try {
      serializerFor(UserMeSchema)({ ...me, is_active: 'yes' });
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ method: 'GET', url: '/answer' });
  });

  it('accepts a schema wrapped as { properties }', () => {
    expect(serializerFor({ properties: z.object({ ok: z.boolean() }) })({ ok: true })).toBe('{"ok":true}');
  });

  it('encodes through a codec in either position a schema may hold it', () => {
    const isoDate = z.codec(z.iso.datetime(), z.date(), {
      decode: (text) => new Date(text),
      encode: (date) => date.toISOString(),
    });
    const at = new Date('2026-11-25T10:00:00.000Z');
    expect(serializerFor(z.object({ at: isoDate }))({ at })).toBe('{"at":"2026-11-25T10:00:00.000Z"}');
    expect(serializerFor(z.array(isoDate.nullable()))([at, null])).toBe('["2026-11-25T10:00:00.000Z",null]');
  });
});

describe('isSameBothWays', () => {
  it('holds for checks alone, however nested', () => {
    const nested = z.object({
      page: z.array(z.object({ id: z.uuid(), tags: z.record(z.string(), z.number().int()) })),
      kind: z.enum(['a', 'b']).optional(),
      either: z.union([z.literal(1), z.null()]),
      both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })),
      pair: z.tuple([z.string(), z.boolean()]),
    });
    expect(isSameBothWays(nested)).toBe(true);
    // A field named like a JSON Schema keyword is still a field.
    expect(isSameBothWays(z.object({ default: z.string().optional() }))).toBe(true);
  });

  it('does not hold once anything may change a value on the way', () => {
    expect(isSameBothWays(z.object({ n: z.string().transform((s) => s.length) }))).toBe(false);
    expect(isSameBothWays(z.object({ n: z.number().default(1) }))).toBe(false);
    expect(isSameBothWays(z.array(z.string().catch('')))).toBe(false);
    expect(isSameBothWays(z.string().pipe(z.email()))).toBe(false);
    expect(isSameBothWays(z.object({ at: z.date() }))).toBe(false);
    expect(isSameBothWays(z.custom<string>((value) => typeof value === 'string'))).toBe(false);
  });

  it('describes a recursive schema once', () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    expect(isSameBothWays(node)).toBe(true);
  });
});
