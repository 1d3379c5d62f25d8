import { TENANT_HEADER } from '@dataplatform/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthContext } from '../lib/auth-context.js';

/** The tenant a request acts for, once its header has been checked against the caller. */
export interface TenantContext {
  id: string;
  name: string;
  /** The tenant database URL, still sealed; null when the tenant has none. */
  sealedDburl: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set from `X-Tenant-ID`; null when the header is absent or empty. */
    tenant: TenantContext | null;
  }
}

export interface TenantContextPluginOptions {
  /** Throws the 4xx the caller deserves (unknown, inactive, not a member) or gives the tenant. */
  resolveTenant(tenantId: string, auth: AuthContext): Promise<TenantContext>;
}

const headerName = TENANT_HEADER.toLowerCase();

function requestedTenantId(request: FastifyRequest): string | undefined {
  const value = request.headers[headerName];
  const text = Array.isArray(value) ? value.join(',') : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

/**
 * Reads `X-Tenant-ID` on every request, after the auth guard. Absent or empty: no tenant. Otherwise
 * it must name an existing, active tenant the caller belongs to (superusers: any). Anonymous callers
 * of public routes are never members of anything, so for them the header is ignored: a stale tenant
 * left in a browser must not break login or the contact form.
 */
export const tenantContextPlugin = fp<TenantContextPluginOptions>(
  async (app: FastifyInstance, options) => {
    app.decorateRequest('tenant', null);
    // A callback hook: most requests name no tenant, and an async hook would cost each a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const tenantId = request.is404 ? undefined : requestedTenantId(request);
      if (tenantId === undefined || request.auth === null) return done();
      options.resolveTenant(tenantId, request.auth).then((tenant) => {
        request.tenant = tenant;
        request.log = request.log.child({ tenantId: tenant.id });
        done();
      }, done);
    });
  },
  { name: 'tenant-context', dependencies: ['error-handler', 'auth'] },
);
