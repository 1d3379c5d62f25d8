import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { twoFactorRecoveryCodes, userTwoFactor } from '../../db/schema/index.js';

export type TwoFactorRow = typeof userTwoFactor.$inferSelect;

export async function findTwoFactor(db: DbOrTx, userId: string): Promise<TwoFactorRow | undefined> {
  const [row] = await db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId)).limit(1);
  return row;
}

/** Whether the user has two-factor sign-in on (a set-up waiting for its first code does not count). */
export async function isTwoFactorEnabled(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: userTwoFactor.userId })
    .from(userTwoFactor)
    .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt)))
    .limit(1);
  return row !== undefined;
}

/** Starts (or restarts) a set-up: a new sealed secret, not on yet. Never touches one that is on. */
export async function upsertPendingTwoFactor(db: DbOrTx, userId: string, sealedSecret: string): Promise<boolean> {
  const rows = await db
    .insert(userTwoFactor)
    .values({ userId, sealedSecret })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { sealedSecret, lastTimeStep: null },
      setWhere: isNull(userTwoFactor.enabledAt),
    })
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

export async function markTwoFactorEnabled(db: DbOrTx, userId: string, enabledAt: Date, timeStep: number) {
  const rows = await db
    .update(userTwoFactor)
    .set({ enabledAt, lastTimeStep: timeStep })
    .where(and(eq(userTwoFactor.userId, userId), isNull(userTwoFactor.enabledAt)))
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/**
 * Records `timeStep` as the newest accepted one, only if it is newer than the last: of two requests
 * carrying the same code at once, one wins and the other is refused.
 */
export async function advanceTimeStep(db: DbOrTx, userId: string, timeStep: number): Promise<boolean> {
  const rows = await db
    .update(userTwoFactor)
    .set({ lastTimeStep: timeStep })
    .where(
      and(
        eq(userTwoFactor.userId, userId),
        or(isNull(userTwoFactor.lastTimeStep), lt(userTwoFactor.lastTimeStep, timeStep)),
      ),
    )
    .returning({ userId: userTwoFactor.userId });
  return rows.length > 0;
}

/** Removes the account's secret (on or pending) and recovery codes; true when it was on. */
export async function deleteTwoFactor(db: DbOrTx, userId: string): Promise<boolean> {
  const deleted = await db
    .delete(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId))
    .returning({ enabledAt: userTwoFactor.enabledAt });
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  return deleted.some((row) => row.enabledAt !== null);
}

export async function replaceRecoveryCodes(db: DbOrTx, userId: string, codeHashes: string[]): Promise<void> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.insert(twoFactorRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
}

/** Marks an unused code used; false when there is none (wrong, or used already, maybe just now). */
export async function useRecoveryCode(db: DbOrTx, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, codeHash),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return rows.length > 0;
}

export async function countUnusedRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}
