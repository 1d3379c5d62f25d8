import { and, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { emailVerificationTokens } from '../../db/schema/index.js';

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
