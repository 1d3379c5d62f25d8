const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is a UUID as PostgreSQL's `uuid` type reads it (any version): the check before a
 * caller-supplied id meets a uuid column, which would otherwise fail the query with a cast error.
 */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
