import type { PaginationQuery, TenantConnectionCheck, TenantTables } from '@dataplatform/contract';
import pg from 'pg';
import { describeError } from '../../lib/errors.js';
import { scrubSecrets, secretsOf } from './database-url.js';

// What the server does in a tenant's own database (not ours): check that it answers, and list what
// the tenant's role may read. Nothing here touches the platform's database.

/** Connects with a fresh client (not a pooled one), asks the version, and disconnects. */
export async function probeDatabase(url: string, timeoutMs: number): Promise<TenantConnectionCheck> {
  const secrets = secretsOf(url);
  const started = performance.now();
  let client: pg.Client | undefined;
  try {
    client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      application_name: 'dataplatform-check',
    });
    client.on('error', () => undefined);
    await client.connect();
    const result = await client.query<{ server_version: string }>('SHOW server_version');
    const latency = performance.now() - started;
    return {
      ok: true,
      latency_ms: Math.round(latency * 10) / 10,
      server_version: result.rows[0]?.server_version ?? 'unknown',
    };
  } catch (error) {
    return { ok: false, detail: scrubSecrets(describeError(error), secrets) };
  } finally {
    await client?.end().catch(() => undefined);
  }
}

/**
 * The tables and views the tenant's role may read, system schemas left out: one page and the total
 * in one round trip (the catalog, not information_schema, which is several times slower).
 */
const TENANT_TABLES_QUERY = `
  with visible as (
    select n.nspname as schema, c.relname as name,
           case when c.relkind in ('v', 'm') then 'view' else 'table' end as type
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p', 'f', 'v', 'm')
      and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      and has_table_privilege(c.oid, 'SELECT')
  )
  select (select count(*)::int from visible) as total,
         coalesce((select json_agg(page order by page.schema, page.name)
                   from (select * from visible order by schema, name offset $1 limit $2) page), '[]'::json) as data`;

/** One page of the tables and views the tenant's role may read, through a pool of its database. */
export async function listTenantTables(pool: pg.Pool, page: PaginationQuery): Promise<TenantTables> {
  const result = await pool.query<{ total: number; data: TenantTables['data'] }>(TENANT_TABLES_QUERY, [
    page.skip,
    page.limit,
  ]);
  const row = result.rows[0];
  return { data: row?.data ?? [], count: row?.total ?? 0 };
}
