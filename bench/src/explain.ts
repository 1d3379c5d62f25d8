import type { Database } from '@dataplatform/server/src/db/client.js';
import * as schema from '@dataplatform/server/src/db/schema/index.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

export interface ExplainedQuery {
  sql: string;
  params: unknown[];
  /** `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)`'s answer. */
  plan: unknown;
  planningMs: number;
  executionMs: number;
  /** The plan's top node and the nodes that touch a relation, one line: what to read first. */
  summary: string;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function describe(node: PlanNode): string[] {
  const own =
    node['Relation Name'] || node['Index Name']
      ? [`${node['Node Type']} ${node['Index Name'] ?? node['Relation Name']} (${node['Actual Rows'] ?? '?'} rows)`]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(describe)];
}

/**
 * Runs `list` through the server's own repository on a connection that records every query it
 * sends, then explains each of them with its parameters: the plans are those of what the API runs.
 */
export async function explainList(url: string, list: (db: Database) => Promise<unknown>): Promise<ExplainedQuery[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const sent: { sql: string; params: unknown[] }[] = [];
    const db = drizzle({
      client: pool,
      schema,
      logger: { logQuery: (sql, params) => sent.push({ sql, params }) },
    }) as unknown as Database;
    await list(db);
    const explained: ExplainedQuery[] = [];
    for (const { sql, params } of sent) {
      const { rows } = await pool.query<{
        'QUERY PLAN': [{ Plan: PlanNode; 'Planning Time': number; 'Execution Time': number }];
      }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
      const [result] = rows[0]!['QUERY PLAN'];
      const nodes = describe(result.Plan);
      explained.push({
        sql,
        params,
        plan: result,
        planningMs: result['Planning Time'],
        executionMs: result['Execution Time'],
        summary: `${result.Plan['Node Type']}: ${nodes.join(', ') || 'no relation'}`,
      });
    }
    return explained;
  } finally {
    await pool.end();
  }
}
