import { z } from 'zod';

/** Page size bounds shared by every paged collection (`skip`/`limit`). */
export const PAGE_LIMIT_DEFAULT = 100;
export const PAGE_LIMIT_MAX = 1000;

/** Query for paged collections. Strings from the URL are coerced; bad values are a 422. */
export const PaginationQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
});
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;

/** Every collection answers `{ data, count }`; `count` is the total, not the page length. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), count: z.number().int() });
}

export const MessageSchema = z.object({ message: z.string() });
export type Message = z.infer<typeof MessageSchema>;

/** FastAPI-shaped error with a single human-readable text. */
export const HttpErrorSchema = z.object({ detail: z.string() });
export type HttpError = z.infer<typeof HttpErrorSchema>;

/** FastAPI-shaped 422: one entry per invalid field. */
export const ValidationErrorItemSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export const ValidationErrorSchema = z.object({ detail: z.array(ValidationErrorItemSchema) });
export type ValidationErrorItem = z.infer<typeof ValidationErrorItemSchema>;
export type ValidationError = z.infer<typeof ValidationErrorSchema>;

export const UuidSchema = z.uuid({ error: 'Invalid id' });
export const IdParamsSchema = z.object({ id: UuidSchema });
