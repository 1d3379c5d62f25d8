import type { PermissionName } from '@dataplatform/contract';
import type { users } from '../db/schema/index.js';

/**
 * What a request knows of its signed-in user: the account as the API shows it, never the password
 * hash (the two calls that check the password read it when they need it).
 */
export type SessionUser = Pick<
  typeof users.$inferSelect,
  'id' | 'email' | 'fullName' | 'isActive' | 'isSuperuser' | 'emailVerifiedAt' | 'createdAt'
>;

/** The signed-in caller of a request, as the auth guard resolved it from the bearer token. */
export interface AuthContext {
  user: SessionUser;
  sessionId: string;
  /** The user's role names as of this request. */
  roleNames: string[];
}

/** The caller of an admin call, as the audit log records it. */
export interface Actor extends AuthContext {
  ip: string | null;
}

/** Whether the caller holds a permission (superusers hold them all), looked up per request. */
export type HasPermission = (auth: AuthContext, permission: PermissionName) => Promise<boolean>;
