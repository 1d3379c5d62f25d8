import { parse } from 'libpg-query';
import { POSTGRES_FUNCTIONS, POSTGRES_TABLE_FUNCTIONS } from './allowed-functions.js';
import { refused } from './sql-text.js';

// Ours on purpose: an allow-list over PostgreSQL's own parse tree (libpg-query), which no library checks for us.

/**
 * Node kinds of PostgreSQL's raw parse tree (libpg-query, the server's own grammar) a report's
 * query may hold; any other kind is refused (allow-list, docs/decisions/044-studio-engine.md).
 */
const NODE_KINDS = new Set([
  'SelectStmt',
  'ResTarget',
  'ColumnRef',
  'String',
  'A_Star',
  'A_Const',
  'Integer',
  'Float',
  'Boolean',
  'BitString',
  'FuncCall',
  'A_Expr',
  'BoolExpr',
  'NullTest',
  'BooleanTest',
  'TypeCast',
  'TypeName',
  'RangeVar',
  'RangeSubselect',
  'RangeFunction',
  'JoinExpr',
  'SortBy',
  'WithClause',
  'CommonTableExpr',
  'ParamRef',
  'CaseExpr',
  'CaseWhen',
  'CoalesceExpr',
  'MinMaxExpr',
  'SubLink',
  'A_ArrayExpr',
  'A_Indirection',
  'A_Indices',
  'RowExpr',
  'WindowDef',
  'List',
  'SQLValueFunction',
  'GroupingSet',
  'Alias',
  'CollateClause',
]);

/** Schemas whose tables and views a report may not read: the catalogs and the server's views. */
const isSystemSchema = (schema: string) =>
  schema === 'information_schema' || schema === 'pg_catalog' || schema.startsWith('pg_');

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `sval` strings of a name list (funcname, names of a TypeName), lower-cased. */
function names(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => {
    const inner = isObject(item) && isObject(item.String) ? item.String.sval : undefined;
    return typeof inner === 'string' ? inner.toLowerCase() : '';
  });
}

function checkFunction(node: JsonObject, allowed: ReadonlySet<string>, what: string): void {
  const parts = names(node.funcname);
  const name = parts.at(-1) ?? '';
  const qualified = parts.length > 1 && !(parts.length === 2 && parts[0] === 'pg_catalog');
  if (qualified || !allowed.has(name)) {
    throw refused(`The ${what} ${parts.join('.') || '?'} is not allowed in a report.`);
  }
}

/**
 * Parses the block's SQL (placeholders already `$1…$n`) with PostgreSQL's own parser and walks the
 * tree: exactly one plain SELECT (no INTO, no FOR UPDATE), only allowed node kinds, functions and
 * table functions, no system catalog, and no parameter beyond the engine's `parameterCount`.
 */
export async function checkPostgresSql(text: string, parameterCount: number): Promise<void> {
  let tree: { stmts?: { stmt?: unknown }[] };
  try {
    tree = await parse(text);
  } catch (error) {
    throw refused(`The query could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const statements = tree.stmts ?? [];
  if (statements.length !== 1) throw refused('A report query is exactly one statement.');
  const statement = statements[0]?.stmt;
  if (!isObject(statement) || !isObject(statement.SelectStmt)) {
    throw refused('Only a read (SELECT, WITH or VALUES) may run in a report.');
  }
  const visit = (value: unknown, kind?: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isObject(value)) return;
    if (kind === undefined) {
      // A node is `{ Kind: { …fields } }`; fields that hold plain objects are visited as nodes.
      const keys = Object.keys(value);
      if (keys.length === 1 && /^[A-Z]/.test(keys[0] as string)) {
        const nodeKind = keys[0] as string;
        if (!NODE_KINDS.has(nodeKind)) throw refused(`The query uses ${nodeKind}, which a report may not.`);
        visit(value[nodeKind], nodeKind);
        return;
      }
    }
    checkNode(kind, value);
    for (const [field, child] of Object.entries(value)) {
      if (field === 'location') continue;
      visit(child);
    }
  };
  const checkNode = (kind: string | undefined, node: JsonObject): void => {
    switch (kind) {
      case 'SelectStmt':
        if (node.intoClause !== undefined) throw refused('SELECT INTO writes a table: a report may only read.');
        if (node.lockingClause !== undefined) throw refused('FOR UPDATE/SHARE locks rows: a report may only read.');
        break;
      case 'FuncCall':
        checkFunction(node, POSTGRES_FUNCTIONS, 'function');
        break;
      case 'RangeFunction': {
        const functions: unknown[] = Array.isArray(node.functions) ? node.functions : [];
        for (const item of functions) {
          // Each entry is a List of (call, column definitions).
          const items: unknown = isObject(item) && isObject(item.List) ? item.List.items : undefined;
          const first: unknown = Array.isArray(items) ? (items as unknown[])[0] : undefined;
          if (isObject(first) && isObject(first.FuncCall)) {
            checkFunction(first.FuncCall, POSTGRES_TABLE_FUNCTIONS, 'table function');
          } else {
            throw refused('Only generate_series and unnest may be called in FROM.');
          }
        }
        break;
      }
      case 'RangeVar': {
        if (typeof node.catalogname === 'string') throw refused('A report may not name another database.');
        const schema = typeof node.schemaname === 'string' ? node.schemaname.toLowerCase() : '';
        const relation = typeof node.relname === 'string' ? node.relname.toLowerCase() : '';
        if (schema !== '' && isSystemSchema(schema)) throw refused(`The schema ${schema} is not readable in a report.`);
        if (schema === '' && relation.startsWith('pg_')) {
          throw refused(`The system view ${relation} is not readable in a report.`);
        }
        break;
      }
      case 'ParamRef': {
        const number = typeof node.number === 'number' ? node.number : 0;
        if (number < 1 || number > parameterCount) throw refused('Parameters are written :name.');
        break;
      }
      default:
        break;
    }
  };
  visit(statement);
}
