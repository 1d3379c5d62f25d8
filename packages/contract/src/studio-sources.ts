import './zod-config.js';
import { z } from 'zod';
import { pageOf } from './common.js';
import { STUDIO_EXTRACT_CONTENT_TYPES, STUDIO_SOURCE_KINDS } from './studio-sources-constants.js';

export * from './studio-sources-constants.js';

/**
 * Studio's sources (issue 31): where a report's SQL runs. One of each kind per tenant, so a
 * source's id is its kind: `demo` (the generated price-transparency data set every signed-in user
 * may read), `tenant` (the tenant's own database) and `extract` (its uploaded files).
 */
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

/**
 * Extracts (issue 31): CSV or Parquet files a tenant uploads, each becoming one table of the
 * tenant's `extract` source, named by the upload's `name`. The file is the raw request body.
 */
export const STUDIO_EXTRACT_NAME_MAX = 63;
export const STUDIO_EXTRACT_FORMATS = ['csv', 'parquet'] as const;

export const studioExtractMessages = {
  nameInvalid: `The name must be 1 to ${STUDIO_EXTRACT_NAME_MAX} lowercase letters, digits and underscores, starting with a letter: it becomes the table's name in SQL`,
  nameReserved: 'The name is a reserved word of SQL: choose another, so the table can be named without quotes',
  nameTaken: 'This tenant already has an extract with this name: delete it first, or choose another name',
  notFound: 'Extract not found',
  noTenant: 'Choose a tenant with the X-Tenant-ID header: an extract belongs to one tenant',
  contentType: `Send the file as the request body with Content-Type ${STUDIO_EXTRACT_CONTENT_TYPES.csv} or ${STUDIO_EXTRACT_CONTENT_TYPES.parquet}`,
  empty: 'The request has no file: send the file as the request body',
  tooLarge: (maxBytes: number) => `The file is larger than the ${maxBytes} bytes an extract may have`,
  timedOut: (seconds: number) =>
    `The file took longer than ${seconds} s to read and was not kept: send a smaller file, or Parquet, which reads faster`,
  cancelled: 'The upload was cancelled before its file was read',
} as const;

export const StudioExtractNameSchema = z
  .string()
  .regex(new RegExp(`^[a-z][a-z0-9_]{0,${STUDIO_EXTRACT_NAME_MAX - 1}}$`), studioExtractMessages.nameInvalid);
export const StudioExtractUploadQuerySchema = z.object({ name: StudioExtractNameSchema });

export const StudioExtractIdParamsSchema = z.object({ extract_id: z.uuid() });

export const StudioExtractSchema = z.object({
  id: z.uuid(),
  /** The table's name in the tenant's `extract` source. */
  name: z.string(),
  /** Always `extract`: the tenant's one extract source, holding all its extracts. */
  source_id: z.literal('extract'),
  format: z.enum(STUDIO_EXTRACT_FORMATS),
  /** The table the file became (one per extract), with its columns as DuckDB typed them. */
  tables: z.array(StudioTableSchema),
  /** Size of the uploaded file. */
  bytes: z.number().int(),
  rows: z.number().int(),
  created_at: z.iso.datetime(),
});
export type StudioExtract = z.infer<typeof StudioExtractSchema>;
export const StudioExtractsSchema = pageOf(StudioExtractSchema);
export type StudioExtracts = z.infer<typeof StudioExtractsSchema>;
