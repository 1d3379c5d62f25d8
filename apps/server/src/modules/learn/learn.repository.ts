import { and, count, desc, eq, gt, gte, inArray, isNull, max, notInArray, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  learnProgress,
  reportLinks,
  reportSchedules,
  reports,
  reportVersions,
  studioExtracts,
} from '../../db/schema/index.js';

/**
 * Learn's own rows (progress) and what its checks read of a tenant's Studio work. The checks only
 * count and look: Studio's tables are read here, never written.
 */

/** How many of a tenant's newest reports a `report_exists` check parses: enough for any lesson. */
const REPORTS_SCANNED = 200;

export interface ProgressKey {
  userId: string;
  tenantId: string;
}

/** The step ids of each lesson the person's last checks found done in the tenant. */
export async function progressOf(db: DbOrTx, key: ProgressKey): Promise<Map<string, Set<string>>> {
  const rows = await db
    .select({ lesson: learnProgress.lesson, step: learnProgress.step })
    .from(learnProgress)
    .where(and(eq(learnProgress.userId, key.userId), eq(learnProgress.tenantId, key.tenantId)));
  const byLesson = new Map<string, Set<string>>();
  for (const row of rows) {
    const steps = byLesson.get(row.lesson) ?? new Set<string>();
    steps.add(row.step);
    byLesson.set(row.lesson, steps);
  }
  return byLesson;
}

/** The progress rows of one person's lesson in the tenant. */
const lessonProgress = (key: ProgressKey, lesson: string) =>
  and(eq(learnProgress.userId, key.userId), eq(learnProgress.tenantId, key.tenantId), eq(learnProgress.lesson, lesson));

/** Keeps a check's outcome for a lesson: exactly the steps in `done` are done. */
export async function replaceProgress(
  db: DbOrTx,
  key: ProgressKey,
  lesson: string,
  done: readonly string[],
  at: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(learnProgress)
      .where(and(lessonProgress(key, lesson), ...(done.length > 0 ? [notInArray(learnProgress.step, [...done])] : [])));
    if (done.length > 0) {
      await tx
        .insert(learnProgress)
        .values(done.map((step) => ({ ...key, lesson, step, doneAt: at })))
        .onConflictDoNothing();
    }
  });
}

export async function deleteProgress(db: DbOrTx, key: ProgressKey, lesson: string): Promise<void> {
  await db.delete(learnProgress).where(lessonProgress(key, lesson));
}

/** How many of the tenant's extracts have at least `minRows` rows. */
export async function countExtracts(db: DbOrTx, tenantId: string, minRows: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(studioExtracts)
    .where(and(eq(studioExtracts.tenantId, tenantId), gte(studioExtracts.rows, minRows)));
  return row?.n ?? 0;
}

/** The current text and source of the tenant's newest reports. */
export function currentReports(db: DbOrTx, tenantId: string) {
  return db
    .select({ source: reports.source, definition: reportVersions.definition })
    .from(reports)
    .innerJoin(
      reportVersions,
      and(eq(reportVersions.reportId, reports.id), eq(reportVersions.version, reports.currentVersion)),
    )
    .where(eq(reports.tenantId, tenantId))
    .orderBy(desc(reports.updatedAt))
    .limit(REPORTS_SCANNED);
}

/** The most versions any report of the tenant has. */
export async function mostVersions(db: DbOrTx, tenantId: string): Promise<number> {
  const [row] = await db
    .select({ n: max(reports.currentVersion) })
    .from(reports)
    .where(eq(reports.tenantId, tenantId));
  return row?.n ?? 0;
}

/** Whether a version of one of the tenant's reports was saved from an agent's answer. */
export async function hasAgentDraftedVersion(db: DbOrTx, tenantId: string): Promise<boolean> {
  const [row] = await db
    .select({ reportId: reportVersions.reportId })
    .from(reportVersions)
    .where(
      and(
        eq(reportVersions.draftedWithAgent, true),
        inArray(
          reportVersions.reportId,
          db.select({ id: reports.id }).from(reports).where(eq(reports.tenantId, tenantId)),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether the tenant has a share link that is neither revoked nor expired at `now`. */
export async function hasLiveShareLink(db: DbOrTx, tenantId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: reportLinks.id })
    .from(reportLinks)
    .where(
      and(
        eq(reportLinks.tenantId, tenantId),
        isNull(reportLinks.revokedAt),
        or(isNull(reportLinks.expiresAt), gt(reportLinks.expiresAt, now)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether the tenant has a report schedule or alert that is on or paused (not stopped). */
export async function hasLiveSchedule(db: DbOrTx, tenantId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: reportSchedules.id })
    .from(reportSchedules)
    .where(and(eq(reportSchedules.tenantId, tenantId), inArray(reportSchedules.status, ['active', 'paused'])))
    .limit(1);
  return row !== undefined;
}
