import type { UserMe, UserPublic } from '@dataplatform/contract';
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

/**
 * `GET /users/me`: the caller with the names of its roles. The roles are added to toUserPublic's
 * object rather than spread into a copy: every signed-in page asks for it, and the copy cost as much
 * again as the mapping.
 */
export function toUserMe(user: SessionUser, roles: string[]): UserMe {
  const me: Omit<UserMe, 'roles'> & { roles?: string[] } = toUserPublic(user);
  me.roles = roles;
  return me as UserMe;
}

/** What the audit log keeps of a user: every column but the password hash. */
export function toUserAuditSnapshot(row: UserRow): Record<string, unknown> {
  return {
    ...toUserPublic(row),
    password_changed_at: row.passwordChangedAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
