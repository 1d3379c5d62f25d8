import { ERROR_STATUS, type ErrorCode, type ErrorCodeOfStatus, type ValidationErrorItem } from '@dataplatform/contract';

/**
 * The one error type services throw. The error handler turns it into a FastAPI-shaped body with a
 * stable code: `{ detail: "...", code }`, or `{ detail: [{ loc, msg, type }], code }` for field
 * errors. The status is the code's, from the contract's one map (ERROR_STATUS).
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;
  constructor(
    /** Called `errorCode`, not `code`: Node, drivers and providers use `code` for their own. */
    readonly errorCode: ErrorCode,
    readonly detail: string | ValidationErrorItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : (detail[0]?.msg ?? 'Validation Error'));
    this.statusCode = ERROR_STATUS[errorCode];
  }
}

/** The generic code of `status` (the first the contract lists for it), if it has one. */
export function genericErrorCode(status: number): ErrorCode | undefined {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).find((code) => ERROR_STATUS[code] === status);
}

// Each helper takes the generic code of its status, or a more specific one of the same status.
export const badRequest = (detail: string, code: ErrorCodeOfStatus<400> = 'bad_request') => new AppError(code, detail);
export const unauthorized = (detail: string) =>
  new AppError('not_authenticated', detail, { 'WWW-Authenticate': 'Bearer' });
export const forbidden = (detail: string) => new AppError('permission_denied', detail);
export const notFound = (detail: string) => new AppError('not_found', detail);
export const conflict = (detail: string, code: ErrorCodeOfStatus<409> = 'conflict') => new AppError(code, detail);
/** The payment was refused (a declined card); `detail` is the provider's reason. */
export const paymentRequired = (detail: string, code: ErrorCodeOfStatus<402> = 'payment_failed') =>
  new AppError(code, detail);
/** A Range no part of the `size`-byte file satisfies; Content-Range says how long the file is. */
export const rangeNotSatisfiable = (detail: string, size: number) =>
  new AppError('range_not_satisfiable', detail, { 'Content-Range': `bytes */${size}` });
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', detail, { 'Retry-After': String(retryAfterSeconds) });

/** A 422 for one field, in the same shape as schema validation failures. */
export const fieldError = (loc: (string | number)[], msg: string, type = 'value_error') =>
  new AppError('validation_failed', [{ loc, msg, type }]);

/** The SQLSTATE of a PostgreSQL error, whichever driver raised it (drizzle wraps it in `cause`). */
export function sqlStateOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && 'code' in current) {
      const code = current.code;
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** PostgreSQL check_violation, whichever driver raised it. */
export function isCheckViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23514';
}

/** PostgreSQL unique_violation, whichever driver raised it. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

/**
 * PostgreSQL foreign_key_violation: a row refers to one deleted meanwhile (assigning a role that
 * another request is deleting). Services check existence first; this covers the race after it.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23503';
}

/**
 * PostgreSQL's class 22 "data exception" (a value the column cannot hold: out of range, too long,
 * bad encoding). Validation should catch these first; this is the net under it.
 */
export function isDataException(error: unknown): boolean {
  return sqlStateOf(error)?.startsWith('22') ?? false;
}

/**
 * An error as one readable line, for logs, stored failure notes and driver messages shown to an
 * admin: its message with those of its causes (Drizzle wraps the driver's error as "Failed query:
 * commit", and the reason is in the cause), and the inner errors of an AggregateError, to which
 * Node gives an empty message when every address of a host refuses.
 */
export function describeError(error: unknown): string {
  const messages: string[] = [];
  for (let current: unknown = error; current instanceof Error && messages.length < 4; current = current.cause) {
    if (current instanceof AggregateError && current.message === '') {
      messages.push(current.errors.map((inner: unknown) => describeError(inner)).join('; '));
    } else {
      messages.push(current.message || current.name);
    }
  }
  return messages.length > 0 ? messages.join(': ') : String(error);
}

/** What a request is told while the database cannot be reached; the client may retry after a pause. */
export const DATABASE_UNAVAILABLE = 'The database is unavailable; please try again shortly';
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATEs that mean the connection, not the statement, failed: class 08 (connection exception),
 * 57P01–57P03 (the server is shutting down, crashed or still starting), 53300 (too many connections).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
/** Socket-level failures Node reports while reaching or talking to the server. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** pg's own messages for a connection it lost or could not open in time. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];
/** Refusals at connect time that carry a generic SQLSTATE (55000 for a database closed to connections). */
const UNAVAILABLE_FRAGMENTS = ['is not currently accepting connections'];

/**
 * Whether `error` (or one of its causes) says the database could not be reached or dropped the
 * connection: the request did not fail on its merits and may succeed once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 16; seen += 1) {
    const current = pending.shift();
    if (!(current instanceof Error)) continue;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
    if (UNAVAILABLE_MESSAGES.some((message) => current.message.startsWith(message))) return true;
    if (UNAVAILABLE_FRAGMENTS.some((fragment) => current.message.includes(fragment))) return true;
    if (current instanceof AggregateError) pending.push(...(current.errors as unknown[]));
    pending.push(current.cause);
  }
  return false;
}

/** A database (ours, or a tenant's) cannot be reached for now: the client may retry after a pause. */
export const serviceUnavailable = (detail: string) =>
  new AppError('service_unavailable', detail, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });

export const databaseUnavailable = () => serviceUnavailable(DATABASE_UNAVAILABLE);

/**
 * Attempts at an action open to abuse cannot be counted (the shared rate-limit store is unreachable):
 * it is refused rather than left unlimited (decision 049); `detail` names the action.
 */
export const rateLimitUnavailable = (detail: string) =>
  new AppError('rate_limit_unavailable', detail, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
