import type { UserPublic } from '@dataplatform/contract';
import type { SessionUser } from '../../lib/auth-context.js';
import type { UserRow } from './users.repository.js';

/** The only way a user row leaves the server: named fields, never the hash. */
export function toUserPublic(row: SessionUser): UserPublic {
  return {
    id: row.id,
    email: row.email,
    full_name: row.fullName,
    is_active: row.isActive,
    is_superuser: row.isSuperuser,
    email_verified: row.emailVerifiedAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** What the audit log keeps of a user: every column but the password hash. */
export function toUserAuditSnapshot(row: UserRow): Record<string, unknown> {
  return {
    ...toUserPublic(row),
    password_changed_at: row.passwordChangedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
