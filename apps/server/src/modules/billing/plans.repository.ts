import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { plans, SUBSCRIPTION_LIVE_STATUSES, subscriptions } from '../../db/schema/index.js';

export type PlanRow = typeof plans.$inferSelect;
export type NewPlanRow = typeof plans.$inferInsert;

export async function insertPlan(db: DbOrTx, values: NewPlanRow): Promise<PlanRow> {
  const [row] = await db.insert(plans).values(values).returning();
  return row!;
}

export async function findPlan(db: DbOrTx, id: string, lock?: 'update' | 'share'): Promise<PlanRow | undefined> {
  const query = db.select().from(plans).where(eq(plans.id, id)).limit(1);
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/** Cheapest first (the order the Plans tab shows them in). */
export async function listPlans(db: DbOrTx, options: { includeInactive: boolean }): Promise<PlanRow[]> {
  return db
    .select()
    .from(plans)
    .where(options.includeInactive ? undefined : eq(plans.isActive, true))
    .orderBy(asc(plans.price), asc(plans.name), asc(plans.id));
}

export async function updatePlan(
  db: DbOrTx,
  id: string,
  values: Partial<Omit<NewPlanRow, 'id' | 'createdAt'>>,
): Promise<PlanRow | undefined> {
  const [row] = await db.update(plans).set(values).where(eq(plans.id, id)).returning();
  return row;
}

export async function deletePlan(db: DbOrTx, id: string): Promise<void> {
  await db.delete(plans).where(eq(plans.id, id));
}

export async function countLiveSubscriptionsOfPlan(db: DbOrTx, planId: string): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(subscriptions)
    .where(and(eq(subscriptions.planId, planId), inArray(subscriptions.status, [...SUBSCRIPTION_LIVE_STATUSES])));
  return row?.total ?? 0;
}
