import './zod-config.js';
import { z } from 'zod';
import { ERROR_STATUS, ErrorCode } from './errors.js';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './common-constants.js';

export * from './common-constants.js';

/**
 * A whole number read from the query string. Only digits count: `Number()` would read "" and " " as
 * 0 and "0x10" as 16, which the document's `integer` does not allow; those become NaN, a 422.
 */
export const queryInteger = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && !/^\s*-?\d+\s*$/.test(value) ? Number.NaN : value),
    z.coerce.number().int().min(min).max(max),
  );

/** Query for paged collections. Strings from the URL are parsed; bad values are a 422. */
export const PaginationQuerySchema = z.object({
  skip: queryInteger(0, 1_000_000_000).default(0),
  limit: queryInteger(1, PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
});
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;

/** Every collection answers `{ data, count }`; `count` is the total, not the page length. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), count: z.number().int() });
}

export const MessageSchema = z.object({ message: z.string() });
export type Message = z.infer<typeof MessageSchema>;

/**
 * FastAPI-shaped error with a single human-readable text, and the stable `code` clients branch on
 * (see ERROR_STATUS for the status each code comes with).
 */
/** Named in the OpenAPI document (`#/components/schemas/ErrorCode`), so generated clients get one type. */
export const ErrorCodeSchema = z
  .enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]])
  .meta({ id: 'ErrorCode', description: 'Why the request failed; the status it comes with never changes.' });

export const HttpErrorSchema = z.object({ detail: z.string(), code: ErrorCodeSchema }).meta({ id: 'HttpError' });
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type HttpError = z.infer<typeof HttpErrorSchema>;

/** FastAPI-shaped 422: one entry per invalid field; its code is always `validation_failed`. */
export const ValidationErrorItemSchema = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    type: z.string(),
  })
  .meta({ id: 'ValidationErrorItem' });
export const ValidationErrorSchema = z
  .object({
    detail: z.array(ValidationErrorItemSchema),
    code: z.literal(ErrorCode.validation_failed),
  })
  .meta({ id: 'ValidationError' });
export type ValidationErrorItem = z.infer<typeof ValidationErrorItemSchema>;
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type ValidationError = z.infer<typeof ValidationErrorSchema>;
