import type { ValidationErrorItem } from '@dataplatform/contract';

/**
 * The one error type services throw. The error handler turns it into a FastAPI-shaped body:
 * `{ detail: "..." }`, or `{ detail: [{ loc, msg, type }] }` for field errors.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly detail: string | ValidationErrorItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : (detail[0]?.msg ?? 'Validation Error'));
  }
}

export const badRequest = (detail: string) => new AppError(400, detail);
export const unauthorized = (detail: string) => new AppError(401, detail, { 'WWW-Authenticate': 'Bearer' });
export const forbidden = (detail: string) => new AppError(403, detail);
export const notFound = (detail: string) => new AppError(404, detail);
export const conflict = (detail: string) => new AppError(409, detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new AppError(429, detail, { 'Retry-After': String(retryAfterSeconds) });

/** A 422 for one field, in the same shape as schema validation failures. */
export const fieldError = (loc: (string | number)[], msg: string, type = 'value_error') =>
  new AppError(422, [{ loc, msg, type }]);

/** PostgreSQL unique_violation, whichever driver raised it. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && 'code' in current && (current as { code: unknown }).code === '23505') {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
