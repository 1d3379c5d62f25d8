import { and, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { roles, sessions, userRoles, users } from '../../db/schema/index.js';
import type { UserRow } from '../users/users.service.js';

export type { UserRow };

/** Inserts a session and answers its id; prepared once, since every login runs it. */
export function prepareInsertSession(db: DbOrTx) {
  const statement = db
    .insert(sessions)
    .values({
      userId: sql.placeholder('userId'),
      expiresAt: sql.placeholder('expiresAt'),
      ip: sql.placeholder('ip'),
      userAgent: sql.placeholder('userAgent'),
    })
    .returning({ id: sessions.id })
    .prepare('insert_session');
  return async (values: { userId: string; expiresAt: Date; ip: string | null; userAgent: string | null }) => {
    const [row] = await statement.execute(values);
    return row!.id;
  };
}

export interface LiveSession {
  user: UserRow;
  /** Names of the user's roles, sorted (the settings area shows a download per `download_*` role). */
  roleNames: string[];
}

/**
 * The user of a live session and the user's role names, in one round trip. Every authenticated
 * request runs this, so it is built once as a prepared statement rather than per request, and it
 * reads none of the session's own columns: the WHERE clause is all a request needs of them.
 */
export function prepareFindLiveSession(db: DbOrTx) {
  const roleNames = sql<string[]>`coalesce((
    select array_agg(${roles.name} order by ${roles.name})
    from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId}
    where ${userRoles.userId} = ${users.id}), '{}')`;
  const statement = db
    .select({ user: users, roleNames })
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
