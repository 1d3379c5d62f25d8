import type { FastifyRequest } from 'fastify';

/** What logs and metrics call requests no route matched: unknown paths, and web-app pages served as a fallback. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route template a request matched (`/api/v1/users/:user_id`), never its raw URL: ids would make
 * a metric label per user, and paths can carry e-mail addresses (`/password-recovery/{email}`).
 */
export function routeOf(request: FastifyRequest): string {
  return request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
}
