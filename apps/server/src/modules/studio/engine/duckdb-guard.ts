import { DUCKDB_FUNCTIONS, DUCKDB_TABLE_FUNCTIONS } from './allowed-functions.js';
import { refused } from './sql-text.js';

// Ours on purpose: an allow-list over DuckDB's own parse tree, which no library checks for us.

/** Expression classes of DuckDB's serialized tree a report may use; any other is refused. */
const EXPRESSION_CLASSES = new Set([
  'FUNCTION',
  'WINDOW',
  'CONSTANT',
  'COLUMN_REF',
  'STAR',
  'COMPARISON',
  'CONJUNCTION',
  'OPERATOR',
  'CASE',
  'CAST',
  'BETWEEN',
  'SUBQUERY',
  'PARAMETER',
  'LAMBDA',
  'LAMBDA_REF',
  'COLLATE',
  'POSITIONAL_REFERENCE',
]);

/** Kinds of FROM items and query nodes allowed: tables, joins, subqueries, VALUES, allowed table functions. */
const NODE_TYPES = new Set([
  'BASE_TABLE',
  'TABLE_FUNCTION',
  'JOIN',
  'SUBQUERY',
  'EXPRESSION_LIST',
  'EMPTY',
  'SELECT_NODE',
  'SET_OPERATION_NODE',
  'RECURSIVE_CTE_NODE',
  'CTE_NODE',
]);

interface SerializedTree {
  error: boolean;
  error_message?: string;
  statements?: unknown[];
}

type JsonObject = Record<string, unknown>;

/** A string field of the tree, '' when absent or not a string. */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks the output of DuckDB's `json_serialize_sql` for the block's SQL (its own parser, so what
 * is checked is what would run): exactly one SELECT/WITH/VALUES statement (the serializer refuses
 * every other kind: writes, DDL, COPY, ATTACH, INSTALL/LOAD, SET, PRAGMA, CALL, EXPLAIN), only
 * allowed functions and table functions, only the source's own tables (or the query's CTEs), no
 * schema or catalog outside the source's, and no parameter but the engine's own.
 */
export function checkDuckdbTree(json: string, tables: ReadonlySet<string>, parameterCount: number): void {
  let tree: SerializedTree;
  try {
    tree = JSON.parse(json) as SerializedTree;
  } catch {
    throw refused('The query could not be read.');
  }
  if (tree.error) {
    const message = tree.error_message ?? 'syntax error';
    if (message.includes('Only SELECT statements')) {
      throw refused('Only one read statement (SELECT, WITH or VALUES) may run.');
    }
    throw refused(`The query is not valid SQL: ${message}`);
  }
  const statements = tree.statements ?? [];
  if (statements.length !== 1) throw refused('Exactly one statement may run.');
  const cteNames = new Set<string>();
  collectCteNames(statements[0], cteNames);
  walk(statements[0], { tables, cteNames, parameterCount });
}

function collectCteNames(node: unknown, names: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectCteNames(item, names);
    return;
  }
  if (!isObject(node)) return;
  const cteMap = node.cte_map;
  if (isObject(cteMap) && Array.isArray(cteMap.map)) {
    for (const entry of cteMap.map) {
      if (isObject(entry) && typeof entry.key === 'string') names.add(entry.key.toLowerCase());
    }
  }
  for (const value of Object.values(node)) collectCteNames(value, names);
}

interface WalkContext {
  tables: ReadonlySet<string>;
  cteNames: ReadonlySet<string>;
  parameterCount: number;
}

function walk(node: unknown, context: WalkContext): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, context);
    return;
  }
  if (!isObject(node)) return;
  const nodeClass = node.class;
  if (typeof nodeClass === 'string') {
    checkExpression(node, nodeClass, context);
    // A constant's value is data, not a tree.
    if (nodeClass === 'CONSTANT') return;
  } else if ('sample' in node && typeof node.type === 'string') {
    checkFromItem(node, node.type, context);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'value' && nodeClass === 'CONSTANT') continue;
    walk(value, context);
  }
}

function checkExpression(node: JsonObject, nodeClass: string, context: WalkContext): void {
  if (!EXPRESSION_CLASSES.has(nodeClass)) throw refused(`The expression ${nodeClass.toLowerCase()} is not allowed.`);
  if (nodeClass === 'FUNCTION' || nodeClass === 'WINDOW') {
    const name = text(node.function_name).toLowerCase();
    const schema = text(node.schema);
    const catalog = text(node.catalog);
    if (catalog !== '' || (schema !== '' && schema !== 'main')) {
      throw refused(`The function ${schema}.${name} is not allowed.`);
    }
    if (!DUCKDB_FUNCTIONS.has(name)) throw refused(`The function ${name} is not allowed in a report.`);
  }
  if (nodeClass === 'PARAMETER') {
    const identifier = text(node.identifier);
    const match = /^p(\d+)$/.exec(identifier);
    if (!match || Number(match[1]) >= context.parameterCount) {
      throw refused('Parameters are written :name.');
    }
  }
}

function checkFromItem(node: JsonObject, type: string, context: WalkContext): void {
  if (!NODE_TYPES.has(type)) throw refused(`${type.toLowerCase().replaceAll('_', ' ')} is not allowed in a report.`);
  if (type === 'BASE_TABLE') {
    const name = text(node.table_name);
    const schema = text(node.schema_name);
    const catalog = text(node.catalog_name);
    if (catalog !== '' || (schema !== '' && schema !== 'main')) {
      throw refused(`The table ${[catalog, schema, name].filter(Boolean).join('.')} is not in this source.`);
    }
    const key = name.toLowerCase();
    if (!(schema === '' && context.cteNames.has(key)) && !context.tables.has(key)) {
      throw refused(`The table ${name} is not in this source.`);
    }
  }
  if (type === 'TABLE_FUNCTION') {
    const call = node.function;
    const name = isObject(call) ? text(call.function_name).toLowerCase() : '';
    if (!DUCKDB_TABLE_FUNCTIONS.has(name)) throw refused(`The table function ${name} is not allowed in a report.`);
  }
}
