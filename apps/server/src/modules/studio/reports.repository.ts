import { and, asc, count, desc, eq, ilike, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { reportAccess, reports, reportVersions, roles, users } from '../../db/schema/index.js';
import type { Page } from '../../lib/pagination.js';
import { isUuid } from '../../lib/uuid.js';

export type ReportRow = typeof reports.$inferSelect;
export type NewReportRow = typeof reports.$inferInsert;
export type NewReportVersionRow = typeof reportVersions.$inferInsert;

/** A report with the text of its current version. */
export type ReportWithText = ReportRow & { definition: string };

/** A version as lists show it: who saved it (their address if the account still exists). */
export interface ReportVersionRow {
  version: number;
  title: string;
  authorId: string | null;
  authorEmail: string | null;
  restoredFrom: number | null;
  draftedWithAgent: boolean;
  createdAt: Date;
}

/** Who a report's visibility is judged for: undefined is nobody in particular (every member's reports only). */
export type Viewer = { id: string; superuser: boolean; roleNames: readonly string[] } | undefined;

/**
 * The reports `viewer` may see (issue 58): every member's, the restricted ones they created or
 * `report_access` names them or one of their roles in, and all of them for a superuser.
 */
export function visibleTo(viewer: Viewer): SQL | undefined {
  if (viewer?.superuser) return undefined;
  const everyone = eq(reports.visibility, 'tenant');
  if (!viewer) return everyone;
  const byRole =
    viewer.roleNames.length > 0
      ? sql` OR ${reportAccess.roleId} IN (SELECT ${roles.id} FROM ${roles} WHERE ${inArray(roles.name, [...viewer.roleNames])})`
      : sql``;
  return or(
    everyone,
    eq(reports.createdBy, viewer.id),
    sql`EXISTS (SELECT 1 FROM ${reportAccess} WHERE ${reportAccess.reportId} = ${reports.id} AND (${reportAccess.userId} = ${viewer.id}${byRole}))`,
  );
}

/** `id = x OR slug = x` within the tenant (a slug never looks like an id), if `viewer` may see it. */
function idOrSlug(tenantId: string, key: string, viewer: Viewer) {
  const byKey = isUuid(key) ? or(eq(reports.id, key), eq(reports.slug, key)) : eq(reports.slug, key);
  return and(eq(reports.tenantId, tenantId), byKey, visibleTo(viewer));
}

export async function findReport(
  db: DbOrTx,
  tenantId: string,
  key: string,
  viewer: Viewer,
): Promise<ReportWithText | undefined> {
  return reportWithText(db, idOrSlug(tenantId, key, viewer));
}

/** The first report `where` matches, with the text of its current version. */
async function reportWithText(db: DbOrTx, where: SQL | undefined): Promise<ReportWithText | undefined> {
  const [row] = await db
    .select({ report: reports, definition: reportVersions.definition })
    .from(reports)
    .innerJoin(
      reportVersions,
      and(eq(reportVersions.reportId, reports.id), eq(reportVersions.version, reports.currentVersion)),
    )
    .where(where)
    .limit(1);
  return row ? { ...row.report, definition: row.definition } : undefined;
}

/** A report by id with its current text, whoever may see it: a share link is its own grant. */
export function findReportById(db: DbOrTx, id: string): Promise<ReportWithText | undefined> {
  return reportWithText(db, eq(reports.id, id));
}

/** Who a restricted report names: its members and its roles. */
export async function listReportAccess(
  db: DbOrTx,
  reportId: string,
): Promise<{ userIds: string[]; roleIds: string[] }> {
  const rows = await db.select().from(reportAccess).where(eq(reportAccess.reportId, reportId));
  return {
    userIds: rows.flatMap((row) => (row.userId ? [row.userId] : [])),
    roleIds: rows.flatMap((row) => (row.roleId ? [row.roleId] : [])),
  };
}

/** Replaces who a report names (nobody for `tenant` visibility). */
export async function replaceReportAccess(
  db: DbOrTx,
  reportId: string,
  access: { userIds: readonly string[]; roleIds: readonly string[] },
): Promise<void> {
  await db.delete(reportAccess).where(eq(reportAccess.reportId, reportId));
  const rows = [
    ...access.userIds.map((userId) => ({ reportId, userId })),
    ...access.roleIds.map((roleId) => ({ reportId, roleId })),
  ];
  if (rows.length > 0) await db.insert(reportAccess).values(rows);
}

export async function setReportVisibility(
  db: DbOrTx,
  id: string,
  visibility: ReportRow['visibility'],
): Promise<ReportRow | undefined> {
  const [row] = await db.update(reports).set({ visibility }).where(eq(reports.id, id)).returning();
  return row;
}

/** A report as the list shows it: who saved its current version (their address if the account still exists). */
export type ReportListRow = ReportRow & { updatedByEmail: string | null };

/** `%text%` for LIKE, with the pattern's own characters escaped (`\\` is PostgreSQL's default escape). */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * A tenant's reports by title (then id, so pages never overlap), and how many it has; `search`
 * keeps those whose title, description or slug contains it, whatever the case.
 */
export async function listReports(
  db: DbOrTx,
  tenantId: string,
  page: { skip: number; limit: number; search?: string | undefined },
  viewer: Viewer,
): Promise<Page<ReportListRow>> {
  const pattern = page.search ? containing(page.search) : undefined;
  const where = and(
    eq(reports.tenantId, tenantId),
    visibleTo(viewer),
    pattern
      ? or(ilike(reports.title, pattern), ilike(reports.description, pattern), ilike(reports.slug, pattern))
      : undefined,
  );
  const [data, total] = await Promise.all([
    page.limit === 0
      ? Promise.resolve([])
      : db
          .select({ report: reports, updatedByEmail: users.email })
          .from(reports)
          .leftJoin(
            reportVersions,
            and(eq(reportVersions.reportId, reports.id), eq(reportVersions.version, reports.currentVersion)),
          )
          .leftJoin(users, eq(users.id, reportVersions.authorId))
          .where(where)
          .orderBy(asc(reports.title), asc(reports.id))
          .offset(page.skip)
          .limit(page.limit)
          .then((rows) => rows.map((row) => ({ ...row.report, updatedByEmail: row.updatedByEmail }))),
    db
      .select({ total: count() })
      .from(reports)
      .where(where)
      .then(([row]) => row?.total ?? 0),
  ]);
  return { data, count: total };
}

/** The slugs of the tenant that are `base` or `base-…`, to pick a free one. */
export async function slugsLike(db: DbOrTx, tenantId: string, base: string): Promise<string[]> {
  const rows = await db
    .select({ slug: reports.slug })
    .from(reports)
    .where(and(eq(reports.tenantId, tenantId), or(eq(reports.slug, base), like(reports.slug, `${base}-%`))));
  return rows.map((row) => row.slug);
}

export async function insertReport(db: DbOrTx, values: NewReportRow): Promise<ReportRow> {
  const [row] = await db.insert(reports).values(values).returning();
  return row!;
}

export async function insertReportVersion(db: DbOrTx, values: NewReportVersionRow): Promise<void> {
  await db.insert(reportVersions).values(values);
}

/**
 * Makes the next version current, with the new title, description and source. With `expected`, only
 * if the current version is still that one (undefined otherwise: someone saved meanwhile); the row
 * lock makes a second save of the same version wait for the first and then find it stale.
 */
export async function advanceVersion(
  db: DbOrTx,
  id: string,
  expected: number | null,
  values: Pick<ReportRow, 'title' | 'description' | 'source' | 'updatedAt'>,
): Promise<ReportRow | undefined> {
  const [row] = await db
    .update(reports)
    .set({ ...values, currentVersion: sql`${reports.currentVersion} + 1` })
    .where(expected === null ? eq(reports.id, id) : and(eq(reports.id, id), eq(reports.currentVersion, expected)))
    .returning();
  return row;
}

export async function deleteReport(db: DbOrTx, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.delete(reports).where(eq(reports.id, id)).returning();
  return row;
}

const versionColumns = {
  version: reportVersions.version,
  title: reportVersions.title,
  authorId: reportVersions.authorId,
  authorEmail: users.email,
  restoredFrom: reportVersions.restoredFrom,
  draftedWithAgent: reportVersions.draftedWithAgent,
  createdAt: reportVersions.createdAt,
};

/** One version with its text. */
export async function findReportVersion(
  db: DbOrTx,
  reportId: string,
  version: number,
): Promise<(ReportVersionRow & { definition: string }) | undefined> {
  const [row] = await db
    .select({ ...versionColumns, definition: reportVersions.definition })
    .from(reportVersions)
    .leftJoin(users, eq(users.id, reportVersions.authorId))
    .where(and(eq(reportVersions.reportId, reportId), eq(reportVersions.version, version)))
    .limit(1);
  return row;
}

/** A report's versions, newest first. */
export async function listReportVersions(
  db: DbOrTx,
  reportId: string,
  page: { skip: number; limit: number },
): Promise<Page<ReportVersionRow>> {
  const where = eq(reportVersions.reportId, reportId);
  const [data, total] = await Promise.all([
    db
      .select(versionColumns)
      .from(reportVersions)
      .leftJoin(users, eq(users.id, reportVersions.authorId))
      .where(where)
      .orderBy(desc(reportVersions.version))
      .offset(page.skip)
      .limit(page.limit),
    db
      .select({ total: count() })
      .from(reportVersions)
      .where(where)
      .then(([row]) => row?.total ?? 0),
  ]);
  return { data, count: total };
}
