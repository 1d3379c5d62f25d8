import { and, asc, count, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { reportScheduleRuns, reportSchedules } from '../../../db/schema/index.js';

export type ScheduleRow = typeof reportSchedules.$inferSelect;
export type NewScheduleRow = typeof reportSchedules.$inferInsert;

export async function insertSchedule(db: DbOrTx, values: NewScheduleRow): Promise<ScheduleRow> {
  const [row] = await db.insert(reportSchedules).values(values).returning();
  return row!;
}

/** A schedule of the tenant (null: the schedules of built-ins made without a tenant). */
export async function findSchedule(db: DbOrTx, tenantId: string | null, id: string): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .select()
    .from(reportSchedules)
    .where(
      and(
        eq(reportSchedules.id, id),
        tenantId === null ? isNull(reportSchedules.tenantId) : eq(reportSchedules.tenantId, tenantId),
      ),
    )
    .limit(1);
  return row;
}

export function listSchedules(db: DbOrTx, tenantId: string | null, reportId: string): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(reportSchedules)
    .where(
      and(
        eq(reportSchedules.reportId, reportId),
        tenantId === null ? isNull(reportSchedules.tenantId) : eq(reportSchedules.tenantId, tenantId),
      ),
    )
    .orderBy(asc(reportSchedules.createdAt), asc(reportSchedules.id));
}

export async function countSchedules(db: DbOrTx, reportId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(reportSchedules).where(eq(reportSchedules.reportId, reportId));
  return row?.n ?? 0;
}

export async function updateSchedule(
  db: DbOrTx,
  id: string,
  values: Partial<NewScheduleRow>,
): Promise<ScheduleRow | undefined> {
  const [row] = await db.update(reportSchedules).set(values).where(eq(reportSchedules.id, id)).returning();
  return row;
}

export async function deleteSchedule(db: DbOrTx, id: string): Promise<ScheduleRow | undefined> {
  const [row] = await db.delete(reportSchedules).where(eq(reportSchedules.id, id)).returning();
  return row;
}

/**
 * Claims up to `limit` active schedules due at `dueAt` (optionally only one author's: the sandbox
 * clock moves one customer's time) whose lease, if any, has run out at `now`. SKIP LOCKED and the
 * conditional lease let instances that both see a schedule due claim it once; `token` marks this
 * claim, and only its holder may finish the delivery (finishDelivery).
 */
export async function claimDueSchedules(
  db: DbOrTx,
  options: { dueAt: Date; now: Date; leaseUntil: Date; token: string; limit: number; authorId?: string },
): Promise<ScheduleRow[]> {
  const due = db
    .select({ id: reportSchedules.id })
    .from(reportSchedules)
    .where(
      and(
        eq(reportSchedules.status, 'active'),
        lte(reportSchedules.nextRunAt, options.dueAt),
        or(isNull(reportSchedules.claimedUntil), lte(reportSchedules.claimedUntil, options.now)),
        options.authorId ? eq(reportSchedules.createdBy, options.authorId) : undefined,
      ),
    )
    .orderBy(asc(reportSchedules.nextRunAt), asc(reportSchedules.id))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(reportSchedules)
    .set({ claimToken: options.token, claimedUntil: options.leaseUntil })
    .where(
      and(
        inArray(reportSchedules.id, due),
        // Re-checked on the locked row: a claim that committed meanwhile is not taken over.
        or(isNull(reportSchedules.claimedUntil), lte(reportSchedules.claimedUntil, options.now)),
      ),
    )
    .returning();
}

/**
 * Ends a claimed delivery: moves the schedule on, records the period (its idempotency key), all
 * only if `token` still holds the claim and the period was not recorded. False when another
 * instance took the schedule over (this one's lease ran out): the caller must roll back.
 */
export async function finishDelivery(
  db: DbOrTx,
  options: {
    id: string;
    token: string;
    period: string;
    outcome: 'sent' | 'skipped' | 'failed';
    ranAt: Date;
    values: Partial<NewScheduleRow>;
  },
): Promise<boolean> {
  const moved = await db
    .update(reportSchedules)
    .set({ ...options.values, claimToken: null, claimedUntil: null, lastRunAt: options.ranAt, updatedAt: sql`now()` })
    .where(and(eq(reportSchedules.id, options.id), eq(reportSchedules.claimToken, options.token)))
    .returning({ id: reportSchedules.id });
  if (moved.length === 0) return false;
  const recorded = await db
    .insert(reportScheduleRuns)
    .values({ scheduleId: options.id, period: options.period, outcome: options.outcome, ranAt: options.ranAt })
    .onConflictDoNothing()
    .returning({ id: reportScheduleRuns.scheduleId });
  return recorded.length > 0;
}

/** Lets go of a claim without delivering (the instance is stopping): another may take it at once. */
export async function releaseClaim(db: DbOrTx, id: string, token: string): Promise<void> {
  await db
    .update(reportSchedules)
    .set({ claimToken: null, claimedUntil: null })
    .where(and(eq(reportSchedules.id, id), eq(reportSchedules.claimToken, token)));
}
