import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { emailVerificationTokens, users } from '../../db/schema/index.js';

export type VerificationPurpose = (typeof emailVerificationTokens.$inferSelect)['purpose'];

/** Stores a new link's digest after killing the account's older links: only the newest one works. */
export async function replaceVerificationToken(
  db: DbOrTx,
  values: { userId: string; purpose: VerificationPurpose; email: string; tokenHash: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await invalidateVerificationTokens(db, values.userId, now);
  await db.insert(emailVerificationTokens).values(values);
}

/**
 * Sign-up's one statement: the account and its first verification link, or nothing at all when the
 * address is already registered (answers whether the account was made). A registered address costs
 * the same statement as a new one, so the sign-up's timing does not tell which addresses have
 * accounts (decision 003).
 */
export async function insertUserWithVerificationLink(
  db: DbOrTx,
  user: { email: string; hashedPassword: string; fullName: string | null },
  link: { tokenHash: string; expiresAt: Date },
): Promise<boolean> {
  const result = (await db.execute(sql`
    with new_user as (
      insert into ${users} (${sql.identifier(users.email.name)}, ${sql.identifier(users.hashedPassword.name)},
        ${sql.identifier(users.fullName.name)})
      values (${user.email}, ${user.hashedPassword}, ${user.fullName})
      on conflict (${sql.identifier(users.email.name)}) do nothing
      returning id
    )
    insert into ${emailVerificationTokens} (user_id, purpose, email, token_hash, expires_at)
    select id, 'verify', ${user.email}, ${link.tokenHash}, ${link.expiresAt.toISOString()}::timestamptz from new_user
    returning user_id`)) as { rows: unknown[] };
  return result.rows.length > 0;
}

/** Marks a live link used and answers what it was for; undefined for an unknown, used or expired one. */
export async function consumeVerificationToken(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string; purpose: VerificationPurpose; email: string } | undefined> {
  const [row] = await db
    .update(emailVerificationTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailVerificationTokens.tokenHash, tokenHash),
        isNull(emailVerificationTokens.usedAt),
        gt(emailVerificationTokens.expiresAt, now),
      ),
    )
    .returning({
      userId: emailVerificationTokens.userId,
      purpose: emailVerificationTokens.purpose,
      email: emailVerificationTokens.email,
    });
  return row;
}

/** The address a live `change` link of the account would move it to, if any. */
export async function findPendingEmail(db: DbOrTx, userId: string, now: Date): Promise<string | null> {
  const [row] = await db
    .select({ email: emailVerificationTokens.email })
    .from(emailVerificationTokens)
    .where(
      and(
        eq(emailVerificationTokens.userId, userId),
        eq(emailVerificationTokens.purpose, 'change'),
        isNull(emailVerificationTokens.usedAt),
        gt(emailVerificationTokens.expiresAt, now),
      ),
    )
    .orderBy(desc(emailVerificationTokens.createdAt))
    .limit(1);
  return row?.email ?? null;
}

/** Kills every outstanding link of the account (a new link, a followed one, an admin's change of address). */
export async function invalidateVerificationTokens(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(emailVerificationTokens)
    .set({ usedAt: now })
    .where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
}

/** Housekeeping: links used or expired before `before`. */
export async function deleteDeadVerificationTokens(db: DbOrTx, before: Date): Promise<void> {
  await db
    .delete(emailVerificationTokens)
    .where(or(lt(emailVerificationTokens.expiresAt, before), lt(emailVerificationTokens.usedAt, before)));
}
