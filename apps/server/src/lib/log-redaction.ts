/**
 * What a log line must never carry, by the name of the key that holds it: credentials, tokens,
 * card data and tenant database URLs. Nothing secret is logged on purpose (requests are logged
 * without headers or bodies); this catches an object logged whole by mistake, at any depth.
 */
const SECRET_KEYS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'new_password',
  'current_password',
  'confirm_password',
  'token',
  'access_token',
  'refresh_token',
  'client_secret',
  'secret',
  'dburl',
  'number',
  'cvc',
]);

export const CENSORED = '[redacted]';

/** Deeper than any object we log; past it a value is written as it is (and cycles end here). */
const MAX_DEPTH = 8;

type Entries = [string, unknown][];

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The entries with secrets censored, or undefined when none needed it (no copy is made then). */
function censoredEntries(entries: Entries, depth: number): Entries | undefined {
  let changed: Entries | undefined;
  entries.forEach(([key, value], index) => {
    const censored = SECRET_KEYS.has(key.toLowerCase()) ? CENSORED : censorAt(value, depth + 1);
    if (censored === value) return;
    changed ??= entries.slice();
    changed[index] = [key, censored];
  });
  return changed;
}

function censorAt(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const censored = censorAt(item, depth + 1);
      if (censored === item) return;
      copy ??= value.slice();
      copy[index] = censored;
    });
    return copy ?? value;
  }
  if (value instanceof Error) {
    // Own enumerable fields (a client library's `headers`, `config`, …) and the cause chain.
    const entries: Entries = Object.entries(value);
    if (value.cause !== undefined && !Object.prototype.propertyIsEnumerable.call(value, 'cause')) {
      entries.push(['cause', value.cause]);
    }
    const changed = censoredEntries(entries, depth);
    if (!changed) return value;
    // Same prototype, so the error serializer still names its type; message and stack kept.
    const copy = Object.create(Object.getPrototypeOf(value) as object) as Error;
    Object.assign(copy, { message: value.message, stack: value.stack }, Object.fromEntries(changed));
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const changed = censoredEntries(Object.entries(value), depth);
  return changed ? Object.fromEntries(changed) : value;
}

/**
 * The logger's formatter for each line's fields and each child logger's bindings: secret-named keys
 * become `[redacted]` at any depth. Nothing is copied when nothing is secret, so a request's own
 * line (a handful of ids and numbers) costs a walk over its keys and no allocation.
 */
export function censorSecrets<T extends Record<string, unknown>>(fields: T): T {
  return censorAt(fields, 0) as T;
}
