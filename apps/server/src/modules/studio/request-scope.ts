import type { FastifyRequest } from 'fastify';
import type { StudioScope } from './engine/engine.js';

/** The tenant the request chose (checked against the caller by the tenant-context plugin), or none. */
export function scopeOf(request: FastifyRequest): StudioScope {
  const auth = request.auth;
  return {
    tenantId: request.tenant?.id ?? null,
    sealedDburl: request.tenant?.sealedDburl ?? null,
    ...(auth ? { viewer: { id: auth.user.id, superuser: auth.user.isSuperuser, roleNames: auth.roleNames } } : {}),
  };
}
