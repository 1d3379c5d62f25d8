import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { planRoles, plans, roles, SUBSCRIPTION_LIVE_STATUSES, subscriptions } from '../../../db/schema/index.js';

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

export type PlanRoleRef = { id: string; name: string };

/** The roles of each plan, by plan id, names in order (for the plan card). */
export async function listRolesOfPlans(db: DbOrTx, planIds: string[]): Promise<Map<string, PlanRoleRef[]>> {
  const byPlan = new Map<string, PlanRoleRef[]>(planIds.map((id) => [id, []]));
  if (planIds.length === 0) return byPlan;
  const rows = await db
    .select({ planId: planRoles.planId, id: roles.id, name: roles.name })
    .from(planRoles)
    .innerJoin(roles, eq(roles.id, planRoles.roleId))
    .where(inArray(planRoles.planId, planIds))
    .orderBy(asc(roles.name), asc(roles.id));
  for (const row of rows) byPlan.get(row.planId)?.push({ id: row.id, name: row.name });
  return byPlan;
}

/** Locks the named roles as a foreign key check would (a concurrent delete waits); answers those that exist. */
export async function keyShareRoleIds(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: roles.id }).from(roles).where(inArray(roles.id, ids)).for('key share');
  return new Set(rows.map((row) => row.id));
}

/** Makes the plan's roles exactly `roleIds`. */
export async function replacePlanRoles(db: DbOrTx, planId: string, roleIds: string[]): Promise<void> {
  await db.delete(planRoles).where(eq(planRoles.planId, planId));
  if (roleIds.length > 0) await db.insert(planRoles).values(roleIds.map((roleId) => ({ planId, roleId })));
}

/** The plan's live subscriptions, locked (a plan edit resyncs what they grant). */
export async function lockLiveSubscriptionsOfPlan(db: DbOrTx, planId: string) {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.planId, planId), inArray(subscriptions.status, [...SUBSCRIPTION_LIVE_STATUSES])))
    .orderBy(asc(subscriptions.id))
    .for('update');
}
