import type { TenantPublic, TenantSummary } from '@dataplatform/contract';
import type { TenantRow } from './tenants.repository.js';

/** The only way a tenant row leaves the server: the URL masked, never the sealed value. */
export function toTenantPublic(row: TenantRow): TenantPublic {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    dburl: row.dburlMasked,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toTenantSummary(row: TenantRow): TenantSummary {
  return { id: row.id, name: row.name, description: row.description, status: row.status };
}
