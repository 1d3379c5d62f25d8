import type { TenantPublic, TenantSummary } from '@dataplatform/contract';
import { sha256 } from '../../lib/crypto.js';
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

/**
 * What the audit log keeps of a tenant: the URL masked, plus a fingerprint of the sealed value (a
 * hash of ciphertext), so a changed password shows in before/after without revealing anything.
 */
export function toTenantAuditSnapshot(row: TenantRow): Record<string, unknown> {
  return {
    ...toTenantPublic(row),
    dburl_secret_fingerprint: row.dburlSealed === null ? null : sha256(row.dburlSealed).slice(0, 12),
  };
}
