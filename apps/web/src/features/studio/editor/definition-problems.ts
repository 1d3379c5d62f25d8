import { parseReportDefinition, type ReportDefinition } from '@dataplatform/contract';
import { ApiError } from '../../../lib/api-error.js';

/** A problem of the text being edited, where it is (1-based), and who found it. */
export interface EditorProblem {
  line: number;
  column: number;
  message: string;
  /** `server`: the 422 of the last save (the client's check and the server's agree, but the server decides). */
  origin: 'client' | 'server';
}

export type DefinitionCheck =
  { ok: true; definition: ReportDefinition; problems: [] } | { ok: false; problems: EditorProblem[] };

/** Where a problem of the path `loc` is, said in words: "blocks › 2 › kpi › value". */
function where(loc: readonly (string | number)[]): string {
  return loc.length === 0
    ? ''
    : `${loc.map((segment) => (typeof segment === 'number' ? segment + 1 : segment)).join(' › ')}: `;
}

/**
 * The contract's own check, in the browser: the YAML parsed and held against the report schema,
 * each problem at its line and column (STUDIO-EDIT-2). The same function answers the server's 422.
 */
export function checkDefinition(text: string): DefinitionCheck {
  if (text.trim() === '') {
    return { ok: false, problems: [{ line: 1, column: 1, message: 'The definition is empty', origin: 'client' }] };
  }
  const parsed = parseReportDefinition(text);
  if (parsed.ok) return { ok: true, definition: parsed.definition, problems: [] };
  return {
    ok: false,
    problems: parsed.problems.map((problem) => ({
      line: problem.line ?? 1,
      column: problem.column ?? 1,
      message: `${where(problem.loc.map((segment) => (typeof segment === 'number' ? segment : String(segment))))}${problem.msg}`,
      origin: 'client',
    })),
  };
}

interface ProblemItem {
  loc?: unknown;
  msg?: unknown;
  line?: unknown;
  column?: unknown;
}

/**
 * The problems of a 422 answer to a save: those of the definition carry a line and column (the
 * loc starts with body › definition); any other (the slug, say) is placed at the first line.
 * Undefined when the error is not a 422 with a list of problems.
 */
export function serverProblems(error: unknown): EditorProblem[] | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  const body = error.body;
  if (typeof body !== 'object' || body === null || !('detail' in body) || !Array.isArray(body.detail)) return undefined;
  return (body.detail as ProblemItem[]).map((item) => {
    const loc = Array.isArray(item.loc) ? (item.loc as (string | number)[]) : [];
    const inDefinition = loc[0] === 'body' && loc[1] === 'definition' ? loc.slice(2) : loc;
    return {
      line: typeof item.line === 'number' ? item.line : 1,
      column: typeof item.column === 'number' ? item.column : 1,
      message: `${where(inDefinition)}${typeof item.msg === 'string' ? item.msg : 'Invalid value'}`,
      origin: 'server',
    };
  });
}

/** A new report's text: one of each kind of block, on the demo data, ready to preview. */
export const STARTER_DEFINITION = `title: New report
description: What this report answers, in a sentence.
source: demo
params:
  code: { label: Billing code, type: select, options: ["99213", "99214", "70450"], default: "99213" }
blocks:
  - id: median
    title: Median negotiated rate
    kpi: { sql: "SELECT median(negotiated_rate) AS v FROM rates WHERE billing_code = :code", value: v, format: currency }
  - id: by_payer
    title: Median rate by payer
    chart:
      sql: "SELECT payer, median(negotiated_rate) AS median_rate FROM rates WHERE billing_code = :code GROUP BY payer"
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal, sort: -y }, y: { field: median_rate, type: quantitative } } }
  - id: detail
    title: Rates
    table: { sql: "SELECT payer, plan_name, negotiated_rate FROM rates WHERE billing_code = :code", page_size: 10 }
  - id: note
    text: Rates are **negotiated** prices from the payers' files.
`;
