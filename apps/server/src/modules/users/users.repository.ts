import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { paginate, type Page } from '../../lib/pagination.js';
import { users, userTwoFactor } from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The user's current password hash, read only by the calls that check a password. */
export async function findPasswordHash(db: DbOrTx, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ hashedPassword: users.hashedPassword })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.hashedPassword;
}

/** `email` must already be normalised (trimmed, lower-cased) as the contract does. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

/**
 * What a login needs to know of the account named by an e-mail, and nothing more: with two-factor
 * sign-in on, the password step answers a challenge bound to `passwordChangedAt` instead of a session.
 */
export type LoginCredentials = Pick<UserRow, 'id' | 'hashedPassword' | 'isActive' | 'passwordChangedAt'> & {
  twoFactorEnabled: boolean;
};

/**
 * The login lookup, a Drizzle prepared statement built once (it runs on every attempt), reading only
 * what a login uses, the two-factor flag included, so a sign-in makes one round trip before its
 * session insert.
 */
export function prepareFindLoginCredentials(db: Database) {
  const statement = db
    .select({
      id: users.id,
      hashedPassword: users.hashedPassword,
      isActive: users.isActive,
      passwordChangedAt: users.passwordChangedAt,
      twoFactorEnabled: sql<boolean>`${userTwoFactor.enabledAt} is not null`,
    })
    .from(users)
    // At most one row: user_id is the table's key.
    .leftJoin(userTwoFactor, eq(userTwoFactor.userId, users.id))
    .where(eq(users.email, sql.placeholder('email')))
    .limit(1)
    .prepare('find_login_credentials');
  return async (email: string): Promise<LoginCredentials | undefined> => {
    const [row] = await statement.execute({ email });
    return row;
  };
}

export async function insertUser(db: DbOrTx, values: NewUserRow): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateUser(
  db: DbOrTx,
  id: string,
  values: Partial<Omit<NewUserRow, 'id' | 'createdAt'>>,
): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set(values).where(eq(users.id, id)).returning();
  return row;
}

export async function deleteUser(db: DbOrTx, id: string): Promise<boolean> {
  const deleted = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return deleted.length > 0;
}

/** `value` as a LIKE pattern that matches it literally anywhere: `%`, `_` and the backslash are escaped. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * A page of users in the paging key's order (created_at, id; indexed, so a page is read in order and
 * a search stops as soon as the page is full), with the total. `q` matches the e-mail or the full
 * name case-insensitively anywhere, its `%` and `_` taken literally; `ids` keeps only those users
 * (by primary key).
 */
export async function listUsers(
  db: DbOrTx,
  page: { skip: number; limit: number; q?: string | undefined; ids?: string[] | undefined },
): Promise<Page<UserRow>> {
  const pattern = page.q === undefined ? undefined : containsPattern(page.q);
  const where: SQL | undefined = and(
    pattern === undefined ? undefined : or(ilike(users.email, pattern), ilike(users.fullName, pattern)),
    page.ids === undefined ? undefined : inArray(users.id, page.ids),
  );
  return paginate(db, users, { where, orderBy: [asc(users.createdAt), asc(users.id)] }, page);
}
