import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { knownDevices, planRoleGrants, roles, sessions, userRoles, users } from '../../db/schema/index.js';
import type { SessionUser } from '../../lib/auth-context.js';

/**
 * Inserts a session and answers its id and whether its user has signed in from `deviceHash` before,
 * in one round trip: every sign-in runs it, and nearly every one comes from a known device, so that
 * sign-in opens no transaction and reads nothing else. A Drizzle prepared statement, built once (on
 * the PostgreSQL server it is prepared once per connection under its name).
 */
export function prepareOpenSession(db: Database) {
  const inserted = db.$with('inserted').as(
    db
      .insert(sessions)
      .values({
        userId: sql.placeholder('userId'),
        expiresAt: sql.placeholder('expiresAt'),
        lastSeenAt: sql.placeholder('lastSeenAt'),
        ip: sql.placeholder('ip'),
        userAgent: sql.placeholder('userAgent'),
      })
      .returning({ id: sessions.id }),
  );
  // Drizzle writes a column of a one-table query unqualified, so the subquery names its values as
  // parameters rather than the CTE's columns (`user_id = user_id` would match every row).
  const knownDevice = sql<boolean>`exists (
    select 1 from ${knownDevices} where ${knownDevices.userId} = ${sql.placeholder('userId')}::uuid
      and ${knownDevices.deviceHash} = ${sql.placeholder('deviceHash')})`;
  const statement = db.with(inserted).select({ id: inserted.id, knownDevice }).from(inserted).prepare('open_session');
  return async (values: {
    userId: string;
    expiresAt: Date;
    lastSeenAt: Date;
    ip: string | null;
    userAgent: string | null;
    deviceHash: string;
  }): Promise<{ id: string; knownDevice: boolean }> => {
    const [row] = await statement.execute(values);
    return row!;
  };
}

export interface LiveSession {
  user: SessionUser;
  /** Names of the user's roles, sorted (the settings area shows a download per `download_*` role). */
  roleNames: string[];
  /** When a request last used the session, to the precision decision 027 keeps it at. */
  lastSeenAt: Date;
}

/**
 * The user of a live session and the user's role names, in one round trip. Every authenticated
 * request runs this, so it is built once as a Drizzle prepared statement rather than per request
 * (prepared once per connection on the PostgreSQL server); it reads none of the session's own
 * columns but its last use (the WHERE clause is all a request needs of them) and only the user's
 * columns a request uses: not the password hash.
 */
export function prepareFindLiveSession(db: Database) {
  const roleNames = sql<string[]>`coalesce((
    select array_agg(${roles.name} order by ${roles.name})
    from ${roles}
    where ${roles.id} in (
      select ${userRoles.roleId} from ${userRoles} where ${userRoles.userId} = ${users.id}
      union all
      select ${planRoleGrants.roleId} from ${planRoleGrants} where ${planRoleGrants.userId} = ${users.id})), '{}')`;
  const statement = db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      isActive: users.isActive,
      isSuperuser: users.isSuperuser,
      emailVerifiedAt: users.emailVerifiedAt,
      createdAt: users.createdAt,
      roleNames,
      lastSeenAt: sessions.lastSeenAt,
    })
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
    const [row] = await statement.execute({ sessionId, now });
    if (!row) return undefined;
    const { roleNames, lastSeenAt, ...user } = row;
    return { user, roleNames, lastSeenAt };
  };
}

/**
 * Marks a session seen at `now` unless it was marked after `staleBefore`: the condition makes a
 * burst of requests (on any number of instances) write once, not once each.
 */
export function prepareTouchSession(db: DbOrTx) {
  const statement = db
    .update(sessions)
    .set({ lastSeenAt: sql`${sql.placeholder('now')}::timestamptz` })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        lt(sessions.lastSeenAt, sql`${sql.placeholder('staleBefore')}::timestamptz`),
      ),
    )
    .prepare('touch_session');
  return async (sessionId: string, now: Date, staleBefore: Date): Promise<void> => {
    await statement.execute({ sessionId, now: now.toISOString(), staleBefore: staleBefore.toISOString() });
  };
}

export interface SessionRow {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/** A user's sessions that can still authenticate, the most recently used first. */
export async function listLiveSessions(db: DbOrTx, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/**
 * Revokes one live session of `userId`; answers it (as it was) or undefined when that user has no
 * such live session, so someone else's id and an unknown one look the same.
 */
export async function revokeOwnSession(
  db: DbOrTx,
  userId: string,
  sessionId: string,
  now: Date,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
    });
  return row;
}

/**
 * Records that `userId` signed in from the device `deviceHash`; answers whether that is new (and
 * the account had signed in from another device before). One statement, so two sign-ins racing
 * from one new device find it new once.
 */
export async function rememberDevice(db: DbOrTx, userId: string, deviceHash: string, now: Date): Promise<boolean> {
  const inserted = await db
    .insert(knownDevices)
    .values({ userId, deviceHash, firstSeenAt: now })
    .onConflictDoNothing()
    .returning({ deviceHash: knownDevices.deviceHash });
  if (inserted.length === 0) return false;
  const [other] = await db
    .select({ deviceHash: knownDevices.deviceHash })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, userId), ne(knownDevices.deviceHash, deviceHash)))
    .limit(1);
  return other !== undefined;
}

export async function revokeSession(db: DbOrTx, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user, optionally keeping the one making the request; answers how many. */
export async function revokeUserSessions(
  db: DbOrTx,
  userId: string,
  now: Date,
  keepSessionId?: string,
): Promise<number> {
  const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  return revoked.length;
}

/** Housekeeping: sessions that can no longer authenticate anyone. */
export async function deleteDeadSessions(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(sessions).where(or(lt(sessions.expiresAt, before), lt(sessions.revokedAt, before)));
}
