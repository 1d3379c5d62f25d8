import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { AppError, describeError } from '../../../lib/errors.js';
import { notFoundSource } from './instances.js';
import { checkPostgresSql } from './postgres-guard.js';
import { bindPlaceholders, firstLine, valuesFor } from './sql-text.js';
import type { ParamValue, RunRequest, StudioScope, TenantDatabaseAccess } from './types.js';

/** A statement for the tenant's own database: `$1…$n` placeholders, its values, checked by the guard. */
export interface PreparedPostgres {
  text: string;
  values: ParamValue[];
}

/**
 * The `tenant` source: the tenant's own PostgreSQL database, reached through the bounded pool the
 * tenants module keeps (`access`), or a 404 when the scope has none (no tenant chosen, no `dburl`).
 */
export function createTenantDatabase(deps: { access?: TenantDatabaseAccess | undefined; log: FastifyBaseLogger }) {
  const { log } = deps;

  function target(scope: StudioScope): { tenantId: string; sealed: string; access: TenantDatabaseAccess } {
    const access = deps.access;
    if (!access || scope.tenantId === null || !scope.sealedDburl) throw notFoundSource('tenant');
    return { tenantId: scope.tenantId, sealed: scope.sealedDburl, access };
  }

  /** The pool's failures (not the query's) as source_unavailable, without the URL's secrets. */
  function unavailable(tenantId: string, error: unknown): unknown {
    if (error instanceof AppError) return error;
    log.warn({ tenantId, err: firstLine(describeError(error)) }, 'a Studio tenant source failed');
    return new AppError('source_unavailable', "The tenant's database is not available now.", { 'Retry-After': '5' });
  }

  return {
    /** Whether the scope has a `tenant` source. */
    has(scope: StudioScope): boolean {
      return deps.access !== undefined && scope.tenantId !== null && Boolean(scope.sealedDburl);
    },

    /** The tenant the scope's source belongs to and its sealed URL (what names its cached results). */
    target(scope: StudioScope): { tenantId: string; sealed: string } {
      const { tenantId, sealed } = target(scope);
      return { tenantId, sealed };
    },

    /** Runs `work` on the tenant's pool; the pool's failures become source_unavailable. */
    async use<T>(scope: StudioScope, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
      const { tenantId, sealed, access } = target(scope);
      try {
        return await access.use(tenantId, sealed, work);
      } catch (error) {
        throw unavailable(tenantId, error);
      }
    },
  };
}

export type TenantDatabase = ReturnType<typeof createTenantDatabase>;

/** Binds a request's SQL for PostgreSQL and checks it with PostgreSQL's own parser (postgres-guard.ts). */
export async function preparePostgres(request: Pick<RunRequest, 'sql' | 'params'>): Promise<PreparedPostgres> {
  const bound = bindPlaceholders(request.sql, (index) => `$${index + 1}`);
  const values = valuesFor(bound.names, request.params);
  await checkPostgresSql(bound.text, values.length);
  return { text: bound.text, values };
}
