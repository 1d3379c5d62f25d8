import {
  blockKind,
  cacheSeconds,
  type ReportBlockPublic,
  type ReportDefinition,
  type ReportListItem,
  type ReportParamPublic,
  type ReportPublic,
  type ReportSummary,
  type ReportVersion,
  REPORT_PAGE_SIZE_DEFAULT,
} from '@dataplatform/contract';
import { reportTextHtml } from '@dataplatform/contract/markdown';
import type { AuditSnapshot } from '../audit/audit.service.js';
import type { ReportListRow, ReportRow, ReportVersionRow } from './reports.repository.js';

/** What the API says of a report, whether a tenant's row or a built-in. */
export interface ReportRecord {
  id: string;
  slug: string;
  version: number;
  builtIn: boolean;
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
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

function toParams(definition: ReportDefinition): ReportParamPublic[] {
  return Object.entries(definition.params ?? {}).map(([name, param]) => ({
    name,
    label: param.label ?? name,
    type: param.type,
    default: param.default ?? null,
    options: Array.isArray(param.options) ? param.options : null,
    options_sql: typeof param.options === 'string' ? param.options : null,
  }));
}

function toBlocks(definition: ReportDefinition): ReportBlockPublic[] {
  return definition.blocks.map((block) => {
    const kind = blockKind(block);
    const base = { id: block.id, kind, title: block.title ?? null };
    if (block.kpi) return { ...base, kpi: block.kpi };
    if (block.chart) return { ...base, chart: block.chart };
    if (block.table) {
      return { ...base, table: { sql: block.table.sql, page_size: block.table.page_size ?? REPORT_PAGE_SIZE_DEFAULT } };
    }
    const text = block.text ?? '';
    return { ...base, text, html: reportTextHtml(text) };
  });
}

export function toReportPublic(record: ReportRecord): ReportPublic {
  return {
    ...toReportSummary(record),
    definition: record.text,
    cache_seconds: cacheSeconds(record.definition.cache),
    params: toParams(record.definition),
    blocks: toBlocks(record.definition),
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
