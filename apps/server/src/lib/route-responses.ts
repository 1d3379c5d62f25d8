import { HttpErrorSchema, ValidationErrorSchema } from '@dataplatform/contract';

/**
 * The error answers routes declare again and again, declared once: spread them into a route's
 * `response` beside its own (`{ 200: ThingSchema, ...denied }`). Each is `{ detail, code }`
 * (HttpErrorSchema) but for a request that does not fit its schema (ValidationErrorSchema).
 */

/** A route behind the access check: 401 when no one is signed in, 403 when the caller may not. */
export const denied = { 401: HttpErrorSchema, 403: HttpErrorSchema } as const;

/** A route that writes: a malformed request, a conflict with what exists, a body that does not fit. */
export const invalid = { 400: HttpErrorSchema, 409: HttpErrorSchema, 422: ValidationErrorSchema } as const;

/** A route on one record its path names: 404 when there is none, 422 when the path does not fit its schema. */
export const missing = { 404: HttpErrorSchema, 422: ValidationErrorSchema } as const;
