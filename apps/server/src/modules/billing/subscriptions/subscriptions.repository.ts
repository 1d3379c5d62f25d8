import { and, desc, eq, inArray, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { plans, SUBSCRIPTION_LIVE_STATUSES, subscriptions } from '../../../db/schema/index.js';
import type { PlanRow } from '../plans/plans.repository.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionWithPlan = SubscriptionRow & { plan: PlanRow };

const live = inArray(subscriptions.status, [...SUBSCRIPTION_LIVE_STATUSES]);

/** The user's active or past-due subscription (at most one: a partial unique index says so). */
export async function findLiveSubscription(
  db: DbOrTx,
  userId: string,
  lock?: 'update',
): Promise<SubscriptionRow | undefined> {
  const query = db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), live))
    .limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function findLiveSubscriptionWithPlan(
  db: DbOrTx,
  userId: string,
): Promise<SubscriptionWithPlan | undefined> {
  const [row] = await db
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.userId, userId), live))
    .limit(1);
  return row ? { ...row.subscription, plan: row.plan } : undefined;
}

export async function findSubscription(db: DbOrTx, id: string, lock?: 'update'): Promise<SubscriptionRow | undefined> {
  const query = db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function insertSubscription(
  db: DbOrTx,
  values: typeof subscriptions.$inferInsert,
): Promise<SubscriptionRow> {
  const [row] = await db.insert(subscriptions).values(values).returning();
  return row!;
}

export async function updateSubscription(
  db: DbOrTx,
  id: string,
  values: Partial<Omit<typeof subscriptions.$inferInsert, 'id' | 'userId' | 'createdAt'>>,
): Promise<SubscriptionRow> {
  const [row] = await db.update(subscriptions).set(values).where(eq(subscriptions.id, id)).returning();
  return row!;
}

/**
 * Claims up to `limit` subscriptions due for renewal (or a retry) whose previous claim, if any, has
 * run out. SKIP LOCKED lets several instances claim at once without waiting on, or sharing, a row.
 */
export async function claimDueSubscriptions(
  db: DbOrTx,
  options: {
    /** Billing time: what is due by then. */
    now: Date;
    /** Real time, against which earlier claims' leases run out. */
    leaseNow: Date;
    claimId: string;
    claimExpiresAt: Date;
    limit: number;
    /** Only this user's subscription (the sandbox's test clock). */
    userId?: string | undefined;
  },
): Promise<SubscriptionRow[]> {
  const due = db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        live,
        options.userId === undefined ? undefined : eq(subscriptions.userId, options.userId),
        lte(subscriptions.nextAttemptAt, options.now),
        or(isNull(subscriptions.claimExpiresAt), lte(subscriptions.claimExpiresAt, options.leaseNow)),
      ),
    )
    .orderBy(subscriptions.nextAttemptAt)
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(subscriptions)
    .set({ claimId: options.claimId, claimExpiresAt: options.claimExpiresAt })
    .where(inArray(subscriptions.id, due))
    .returning();
}

/** Ends whatever live subscription a user has, at once (account deletion). */
export async function cancelLiveSubscriptionNow(db: DbOrTx, userId: string, now: Date): Promise<SubscriptionRow[]> {
  return db
    .update(subscriptions)
    .set({ status: 'canceled', canceledAt: now, nextAttemptAt: null, updatedAt: now, claimId: null })
    .where(and(eq(subscriptions.userId, userId), live))
    .returning();
}

/** When the user's most recently ended subscription ended, if any did. */
export async function findLatestEndedAt(db: DbOrTx, userId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ canceledAt: subscriptions.canceledAt })
    .from(subscriptions)
    .where(
      and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'canceled'), isNotNull(subscriptions.canceledAt)),
    )
    .orderBy(desc(subscriptions.canceledAt))
    .limit(1);
  return row?.canceledAt ?? undefined;
}
