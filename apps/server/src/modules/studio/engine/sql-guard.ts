import { AppError } from '../../../lib/errors.js';

/**
 * The engine's own check of a report's SQL before it runs (STUDIO.md, "Running a block"): the text
 * is parsed by DuckDB itself (`json_serialize_sql`, which serializes SELECT statements only) and its
 * tree walked. Admitted: exactly one SELECT, WITH or VALUES statement, reading only the source's own
 * tables and the query's CTEs, calling only the functions listed below. Everything else (writes,
 * DDL, COPY, ATTACH, INSTALL/LOAD, SET, PRAGMA, table functions such as read_csv, file, network and
 * environment functions, other catalogs and schemas) is refused before anything runs. An allow-list
 * rather than a deny-list: a function DuckDB adds tomorrow is refused until someone lists it.
 */

/** Aggregates, window functions and scalar functions a report may call. */
const ALLOWED_FUNCTIONS = new Set([
  // aggregates
  'count',
  'count_star',
  'sum',
  'avg',
  'mean',
  'min',
  'max',
  'median',
  'mode',
  'quantile',
  'quantile_cont',
  'quantile_disc',
  'stddev',
  'stddev_pop',
  'stddev_samp',
  'variance',
  'var_pop',
  'var_samp',
  'approx_count_distinct',
  'approx_quantile',
  'first',
  'last',
  'any_value',
  'arg_min',
  'arg_max',
  'string_agg',
  'bool_and',
  'bool_or',
  'corr',
  'covar_pop',
  'covar_samp',
  'regr_slope',
  'regr_intercept',
  'histogram',
  'product',
  'sum_no_overflow',
  // window functions
  'row_number',
  'rank',
  'dense_rank',
  'percent_rank',
  'cume_dist',
  'ntile',
  'lag',
  'lead',
  'first_value',
  'last_value',
  'nth_value',
  // numbers
  'abs',
  'round',
  'floor',
  'ceil',
  'ceiling',
  'trunc',
  'sign',
  'sqrt',
  'cbrt',
  'exp',
  'ln',
  'log',
  'log10',
  'log2',
  'pow',
  'power',
  'greatest',
  'least',
  'mod',
  // text
  'lower',
  'upper',
  'length',
  'strlen',
  'substr',
  'substring',
  'trim',
  'ltrim',
  'rtrim',
  'concat',
  'concat_ws',
  'replace',
  'starts_with',
  'ends_with',
  'contains',
  'prefix',
  'suffix',
  'left',
  'right',
  'lpad',
  'rpad',
  'repeat',
  'reverse',
  'split_part',
  'position',
  'strpos',
  'instr',
  'format',
  'printf',
  'regexp_matches',
  'regexp_replace',
  'regexp_extract',
  'like_escape',
  'ilike_escape',
  'initcap',
  // dates and times
  'date_trunc',
  'date_part',
  'datepart',
  'date_diff',
  'datediff',
  'date_add',
  'extract',
  'year',
  'month',
  'day',
  'quarter',
  'week',
  'dayofweek',
  'dayofyear',
  'hour',
  'minute',
  'second',
  'strftime',
  'strptime',
  'make_date',
  'current_date',
  'today',
  'last_day',
  'monthname',
  'dayname',
  'epoch',
  'to_timestamp',
  'age',
  // conditionals and null handling
  'coalesce',
  'nullif',
  'ifnull',
  'if',
  'isnan',
  'isinf',
  'isfinite',
  // operators, as the parser names them
  '+',
  '-',
  '*',
  '/',
  '//',
  '%',
  '^',
  '**',
  '||',
  '~~',
  '!~~',
  '~~*',
  '!~~*',
  '~~~',
  '!~~~',
  '&',
  '|',
  '<<',
  '>>',
]);

function refuse(detail: string): never {
  throw new AppError('query_refused', detail);
}

/**
 * Turns the report's `:name` placeholders into DuckDB's `$name`, outside quoted text and comments,
 * leaving `::` casts alone. The names found are returned so the caller binds exactly those.
 */
export function bindablePlaceholders(sql: string): { sql: string; names: string[] } {
  let out = '';
  const names = new Set<string>();
  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    const next = sql[index + 1];
    if (char === "'" || char === '"') {
      const end = closingQuote(sql, index, char);
      out += sql.slice(index, end);
      index = end;
    } else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', index);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(index, stop);
      index = stop;
    } else if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', index + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(index, stop);
      index = stop;
    } else if (char === ':' && next === ':') {
      out += '::';
      index += 2;
    } else if (char === ':' && next !== undefined && /[A-Za-z_]/.test(next)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(index + 1))!;
      names.add(match[0]);
      out += `$${match[0]}`;
      index += 1 + match[0].length;
    } else if (char === '$') {
      // DuckDB's own placeholders are not a report's: one way to name a parameter.
      refuse('Parameters are written :name');
    } else {
      out += char;
      index += 1;
    }
  }
  return { sql: out, names: [...names] };
}

function closingQuote(sql: string, start: number, quote: string): number {
  let index = start + 1;
  while (index < sql.length) {
    if (sql[index] === quote) {
      if (sql[index + 1] === quote) index += 2;
      else return index + 1;
    } else index += 1;
  }
  return sql.length;
}

type Node = Record<string, unknown>;

/** A string field of a tree node ('' when absent or not a string). */
const text = (node: Node, key: string): string => (typeof node[key] === 'string' ? node[key] : '');

/**
 * Checks the serialized tree of a statement. `tables` are the source's own tables (lower case).
 * Throws `query_refused` with the first problem found.
 */
export function checkSerializedQuery(serialized: string, tables: ReadonlySet<string>): void {
  let document: { error?: boolean; error_message?: string; statements?: unknown[] };
  try {
    document = JSON.parse(serialized) as typeof document;
  } catch {
    refuse('The query could not be read');
  }
  if (document.error) {
    const message = document.error_message ?? '';
    if (/only select statements/i.test(message)) refuse('Only a SELECT, WITH or VALUES query may run');
    refuse(`The query could not be read: ${message.slice(0, 300)}`);
  }
  const statements = document.statements ?? [];
  if (statements.length !== 1) refuse('Exactly one statement may run');

  const cteNames = new Set<string>();
  const seen: Node[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const node = value as Node;
    seen.push(node);
    const cteMap = (node.cte_map as { map?: { key: string }[] } | undefined)?.map;
    for (const entry of cteMap ?? []) cteNames.add(String(entry.key).toLowerCase());
    for (const child of Object.values(node)) visit(child);
  };
  visit(statements[0]);

  for (const node of seen) {
    if (node.type === 'TABLE_FUNCTION') {
      const name = (node.function as Node | undefined)?.function_name;
      refuse(`Table functions may not be called${typeof name === 'string' ? `: ${name}` : ''}`);
    }
    if (node.class === 'FUNCTION' || node.class === 'WINDOW' || node.class === 'AGGREGATE') {
      const name = text(node, 'function_name').toLowerCase();
      if (text(node, 'schema') !== '' || text(node, 'catalog') !== '') {
        refuse(`Functions may not be named with a schema: ${name}`);
      }
      if (!ALLOWED_FUNCTIONS.has(name)) refuse(`This function may not be called in a report: ${name}`);
    }
    if (node.type === 'BASE_TABLE') {
      const table = text(node, 'table_name').toLowerCase();
      const schema = text(node, 'schema_name');
      if (text(node, 'catalog_name') !== '' || (schema !== '' && schema !== 'main')) {
        refuse(
          `Only this source's own tables may be read: ${[text(node, 'catalog_name'), schema, table].filter(Boolean).join('.')}`,
        );
      }
      if (!tables.has(table) && !cteNames.has(table)) refuse(`No table of this source is called ${table}`);
    }
  }
}
