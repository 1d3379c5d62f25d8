import { z } from 'zod';
import { pageOf } from './common.js';

/**
 * Studio's sources (issue 31): where a report's SQL runs. One of each kind per tenant, so a
 * source's id is its kind: `demo` (the generated price-transparency data set every signed-in user
 * may read), `tenant` (the tenant's own database) and `extract` (its uploaded files).
 */
export const STUDIO_SOURCE_KINDS = ['demo', 'tenant', 'extract'] as const;
export const StudioSourceKindSchema = z.enum(STUDIO_SOURCE_KINDS);

export const StudioSourceSchema = z.object({
  id: StudioSourceKindSchema,
  kind: StudioSourceKindSchema,
  name: z.string(),
});
export const StudioSourcesSchema = pageOf(StudioSourceSchema);

export const StudioColumnSchema = z.object({ name: z.string(), type: z.string() });
export const StudioTableSchema = z.object({ name: z.string(), columns: z.array(StudioColumnSchema) });
export const StudioTablesSchema = pageOf(StudioTableSchema);

/** A source id in a path; an id that names no source of the caller is a 404, not a 422. */
export const StudioSourceIdParamsSchema = z.object({ source_id: z.string() });
