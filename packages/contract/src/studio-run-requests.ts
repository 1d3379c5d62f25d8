// No zod here: the web's report viewers build their run requests with this, and their chunks load no zod.
import type { ReportRun } from './studio-reports.js';
import type { SharedBlock } from './studio-sharing.js';

/**
 * A block's run as a viewer asks for it: every parameter at the value shown (`params`), a table's
 * page (from 0) of its page size, and the sort chosen. The web's viewers and the server's first runs
 * of a shared report (page 0, no sort) build it alike, so a first run answers the viewer's own request.
 */
export function runRequestOf(
  block: Pick<SharedBlock, 'id' | 'table'>,
  params: Record<string, string>,
  page = 0,
  sort?: NonNullable<ReportRun['sort']>[number],
): ReportRun {
  const pageSize = block.table?.page_size ?? 0;
  return {
    block: block.id,
    params,
    skip: block.table ? page * pageSize : 0,
    ...(block.table ? { limit: pageSize } : {}),
    ...(sort ? { sort: [sort] } : {}),
  };
}
