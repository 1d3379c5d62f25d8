import { and, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { roles, sessions, userRoles, users } from '../../db/schema/index.js';
import type { UserRow } from '../users/users.repository.js';

export type { UserRow };
export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(
  db: DbOrTx,
  values: { userId: string; expiresAt: Date; ip: string | null; userAgent: string | null },
): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(values).returning();
  return row!;
}

export interface LiveSession {
  session: SessionRow;
  user: UserRow;
  /** Names of the user's roles, sorted (the settings area shows a download per `download_*` role). */
  roleNames: string[];
}

/**
 * The live session, its user and the user's role names, in one round trip. Every authenticated
 * request runs this, so it is built once as a prepared statement rather than per request.
 */
export function prepareFindLiveSession(db: DbOrTx) {
  const roleNames = sql<string[]>`coalesce((
    select array_agg(${roles.name} order by ${roles.name})
    from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId}
    where ${userRoles.userId} = ${users.id}), '{}')`;
  const statement = db
    .select({ session: sessions, user: users, roleNames })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('find_live_session');
  return async (sessionId: string, now: Date): Promise<LiveSession | undefined> => {
    const [row] = await statement.execute({ sessionId, now: now.toISOString() });
    return row;
  };
}

export async function revokeSession(db: DbOrTx, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user, optionally keeping the one making the request. */
export async function revokeUserSessions(db: DbOrTx, userId: string, now: Date, keepSessionId?: string): Promise<void> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(...conditions));
}

/** Housekeeping: sessions that can no longer authenticate anyone. */
export async function deleteDeadSessions(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(sessions).where(or(lt(sessions.expiresAt, before), lt(sessions.revokedAt, before)));
}
