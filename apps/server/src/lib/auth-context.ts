import type { PermissionName } from '@dataplatform/contract';
import type { users } from '../db/schema/index.js';

/** The signed-in caller of a request, as the auth guard resolved it from the bearer token. */
export interface AuthContext {
  user: typeof users.$inferSelect;
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
