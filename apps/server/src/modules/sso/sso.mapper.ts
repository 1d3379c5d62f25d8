import type { SsoConnectionPublic } from '@dataplatform/contract';
import { sha256 } from '../../lib/crypto.js';
import type { SsoConnectionWithDomains } from './sso.repository.js';

/** The only way a connection leaves the server: never the client secret, sealed or not (SSO-1). */
export function toSsoConnectionPublic(row: SsoConnectionWithDomains): SsoConnectionPublic {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    client_id: row.clientId,
    domains: row.domains,
    tenant_id: row.tenantId,
    allow_password_recovery: row.allowPasswordRecovery,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * What the audit log keeps of a connection: the public shape plus a fingerprint of the sealed secret
 * (a hash of ciphertext), so a changed secret shows in before/after without revealing anything.
 */
export function toSsoConnectionAuditSnapshot(row: SsoConnectionWithDomains): Record<string, unknown> {
  return { ...toSsoConnectionPublic(row), client_secret_fingerprint: sha256(row.clientSecretSealed).slice(0, 12) };
}
