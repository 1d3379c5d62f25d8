import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Whether a JSON Schema holds a `default` anywhere: zod writes one for a `.default()` and a `.catch()`.
 * An object's `properties` are names, not keywords: a field called `default` is walked into, not taken
 * for one.
 */
function holdsDefault(json: unknown): boolean {
  if (Array.isArray(json)) return json.some(holdsDefault);
  if (json === null || typeof json !== 'object') return false;
  return Object.entries(json as Record<string, unknown>).some(([key, value]) => {
    if (key === 'properties' && value !== null && typeof value === 'object') {
      return Object.values(value as Record<string, unknown>).some(holdsDefault);
    }
    return key === 'default' || holdsDefault(value);
  });
}

/**
 * zod closes an object (`additionalProperties: false`) when it describes it as output, where the
 * unknown keys it strips are gone: that says nothing of a value changed on the way, so it is left out
 * of the comparison.
 */
const openObjects = (key: string, value: unknown) =>
  key === 'additionalProperties' && value === false ? undefined : value;

/**
 * Whether `schema` answers the same when parsed forwards as when encoded, asked through zod's own
 * JSON Schema export (`z.toJSONSchema`, whose `io` option describes either side of a schema): a
 * schema that only checks is described alike as input and as output. One that may change a value on
 * the way is not: a transform cannot be described (zod throws), a pipe or codec describes a
 * different side each way, a `.default()` or `.catch()` writes a `default` (and makes its field
 * optional as input only). Anything zod cannot describe (a `z.custom`, a `z.date`) is taken as not.
 * Recursive schemas are described once, by reference.
 */
export function isSameBothWays(schema: z.core.$ZodType): boolean {
  try {
    const input = z.toJSONSchema(schema, { io: 'input' });
    const output = z.toJSONSchema(schema, { io: 'output' });
    return !holdsDefault(output) && JSON.stringify(input, openObjects) === JSON.stringify(output, openObjects);
  } catch {
    return false;
  }
}

/** Fastify hands a route's response schema as given, or wrapped as `{ properties }` by some plugins. */
function zodSchemaOf(schema: unknown): z.core.$ZodType {
  if (schema instanceof z.core.$ZodType) return schema;
  const wrapped = (schema as { properties?: unknown } | null)?.properties;
  if (wrapped instanceof z.core.$ZodType) return wrapped;
  throw new TypeError(`a response schema must be a zod schema, got ${JSON.stringify(schema)}`);
}

interface SerializerRouteSchema {
  schema: unknown;
  method: string;
  url: string;
}

/**
 * Fastify's response serializer: checks every answer against its route's schema (so nothing the
 * schema does not name, such as a password hash, ever leaves) and writes it as JSON.
 *
 * fastify-type-provider-zod's own serializer encodes (runs the schema backwards), which switches off
 * zod's compiled object parser: checking `GET /users/me`'s answer took 2.4 µs that way and 0.4 µs
 * forwards. An answer schema that means the same both ways, as nearly all of ours do, is checked
 * forwards; one holding a codec, transform or default still encodes.
 */
export function responseSerializerCompiler({ schema: routeSchema, method, url }: SerializerRouteSchema) {
  const schema = zodSchemaOf(routeSchema);
  const check = isSameBothWays(schema)
    ? (data: unknown) => z.safeParse(schema, data)
    : (data: unknown) => z.safeEncode(schema, data);
  return (data: unknown): string => {
    const result = check(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}
