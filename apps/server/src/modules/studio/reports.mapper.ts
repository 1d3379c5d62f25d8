import {
  cacheSeconds,
  publicReportBlock,
  publicReportParams,
  type ReportDefinition,
  type ReportListItem,
  type ReportPublic,
  type ReportSummary,
  type ReportVersion,
} from '@dataplatform/contract';
import { reportTextHtml } from '@dataplatform/contract/markdown';
import type { AuditSnapshot } from '../audit/audit.service.js';
import { BUILT_IN_REPORTS_UPDATED_AT, type BuiltInReport } from './built-in-reports.js';
import { parseDefinition } from './parsed-definitions.js';
import type { ReportListRow, ReportRow, ReportVersionRow, ReportWithText } from './reports.repository.js';

/** What the API says of a report, whether a tenant's row or a built-in. */
export interface ReportRecord {
  id: string;
  slug: string;
  version: number;
  builtIn: boolean;
  /** Who sees it: every member of its tenant, or only those it names (issue 58). */
  visibility: 'tenant' | 'restricted';
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  text: string;
  definition: ReportDefinition;
}

export function toReportListItemFromRow(row: ReportListRow): ReportListItem {
  return {
    updated_by: row.updatedByEmail,
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    source: row.source,
    version: row.currentVersion,
    built_in: false,
    visibility: row.visibility,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toReportSummary(record: ReportRecord): ReportSummary {
  return {
    id: record.id,
    slug: record.slug,
    title: record.definition.title,
    description: record.definition.description ?? null,
    source: record.definition.source,
    version: record.version,
    built_in: record.builtIn,
    visibility: record.visibility,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

export function toReportPublic(record: ReportRecord): ReportPublic {
  return {
    ...toReportSummary(record),
    definition: record.text,
    cache_seconds: cacheSeconds(record.definition.cache),
    params: publicReportParams(record.definition),
    blocks: record.definition.blocks.map((block) => publicReportBlock(block, reportTextHtml)),
    created_by: record.createdBy,
  };
}

export function toReportVersion(row: ReportVersionRow): ReportVersion {
  return {
    version: row.version,
    title: row.title,
    author_id: row.authorId,
    author_email: row.authorEmail,
    restored_from: row.restoredFrom,
    drafted_with_agent: row.draftedWithAgent,
    created_at: row.createdAt.toISOString(),
  };
}

/** The audit log's picture of a report: which one, which version, not its whole text. */
export function toReportSnapshot(row: ReportRow, extra: Record<string, unknown> = {}): AuditSnapshot {
  return {
    tenant_id: row.tenantId,
    slug: row.slug,
    title: row.title,
    source: row.source,
    version: row.currentVersion,
    ...extra,
  };
}

/** A built-in report as a record: one version, never changed, read-only. */
export function builtInRecord(report: BuiltInReport): ReportRecord {
  return {
    id: report.id,
    slug: report.slug,
    version: 1,
    builtIn: true,
    visibility: 'tenant',
    createdBy: null,
    createdAt: BUILT_IN_REPORTS_UPDATED_AT,
    updatedAt: BUILT_IN_REPORTS_UPDATED_AT,
    text: report.text,
    definition: report.definition,
  };
}

/** A tenant's stored report as a record, its text parsed (cached: parsed-definitions.ts). */
export function rowRecord(row: ReportWithText): ReportRecord {
  const parsed = parseDefinition(row.definition);
  // Stored texts were valid when saved; one the schema has since tightened against still reads.
  if (!parsed.ok) throw new Error(`stored report ${row.id} v${row.currentVersion} no longer parses`);
  return {
    id: row.id,
    slug: row.slug,
    version: row.currentVersion,
    builtIn: false,
    visibility: row.visibility,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    text: row.definition,
    definition: parsed.definition,
  };
}

/** The one version a built-in report has. */
export function toBuiltInVersion(record: ReportRecord): ReportVersion {
  return {
    version: 1,
    title: record.definition.title,
    author_id: null,
    author_email: null,
    restored_from: null,
    drafted_with_agent: false,
    created_at: record.createdAt.toISOString(),
  };
}
