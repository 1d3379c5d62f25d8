/**
 * The seam between Studio reports and the engine, as notes/studio-split.md fixes it; the branch
 * studio-engine owns this file and its implementation, and replaces this copy when merged.
 */
export type SourceId = 'demo' | 'tenant' | 'extract';
export interface StudioScope {
  tenantId: string | null;
}
export type ParamValue = string | number | boolean | null;
export interface RunRequest {
  scope: StudioScope;
  source: SourceId;
  sql: string;
  params: Record<string, ParamValue>;
  shape: 'page' | 'capped';
  skip?: number;
  limit?: number;
  sort?: { column: string; direction: 'asc' | 'desc' }[];
  cacheKey?: string;
  cacheTtlSeconds?: number;
  signal?: AbortSignal;
}
export interface RunResult {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  count: number;
  cached: boolean;
  elapsed_ms: number;
}
export interface StudioEngine {
  run(request: RunRequest): Promise<RunResult>;
}
