// No zod here (decision 030): a screen that lists the sources (the agent's builder) does not load zod.

/** The kinds of Studio source; one of each per tenant, so a source's id is its kind (studio-sources.ts). */
export const STUDIO_SOURCE_KINDS = ['demo', 'tenant', 'extract'] as const;

/** The content types an upload may have, by the reader DuckDB types the file with. */
export const STUDIO_EXTRACT_CONTENT_TYPES = {
  csv: 'text/csv',
  parquet: 'application/vnd.apache.parquet',
} as const;
