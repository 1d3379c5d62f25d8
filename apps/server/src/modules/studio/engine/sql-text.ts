import { AppError } from '../../../lib/errors.js';
import type { ParamValue } from './types.js';

/** Longest SQL text a block may hold. */
export const MAX_SQL_LENGTH = 100_000;

export const refused = (detail: string) => new AppError('query_refused', detail);

/** The block's SQL with its `:name` placeholders numbered, and the values in that order. */
export interface BoundSql {
  /** The text with each `:name` replaced by `placeholder(index, name)`; a trailing `;` removed. */
  text: string;
  /** Names in order of first use. */
  names: string[];
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;

/**
 * Scans the SQL once, outside string literals, quoted identifiers and comments: `:name` becomes a
 * placeholder of the engine (bound, never spliced), `::` stays a cast, positional parameters the
 * author wrote (`?`, `$1`) are refused, and one trailing `;` is dropped so the text can be wrapped.
 */
export function bindPlaceholders(sql: string, placeholder: (index: number, name: string) => string): BoundSql {
  if (sql.length > MAX_SQL_LENGTH) throw refused(`The query is longer than ${MAX_SQL_LENGTH} characters.`);
  if (sql.includes('\0')) throw refused('The query holds a NUL character.');
  const names: string[] = [];
  let out = '';
  let index = 0;
  const length = sql.length;
  while (index < length) {
    const char = sql[index] as string;
    const next = sql[index + 1];
    if (char === "'" || char === '"' || char === '`') {
      const end = closingQuote(sql, index, char);
      out += sql.slice(index, end);
      index = end;
    } else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', index);
      const stop = end === -1 ? length : end;
      out += sql.slice(index, stop);
      index = stop;
    } else if (char === '/' && next === '*') {
      const end = closingComment(sql, index);
      out += sql.slice(index, end);
      index = end;
    } else if (char === '$' && next !== undefined && /[0-9]/.test(next)) {
      throw refused('Positional parameters ($1) are not allowed: name them, as in :code.');
    } else if (char === '$' && (next === '$' || (next !== undefined && IDENT_START.test(next)))) {
      // A dollar-quoted string ($$…$$ or $tag$…$tag$), or a $name the author wrote.
      const tagEnd = sql.indexOf('$', index + 1);
      const tag = tagEnd === -1 ? '' : sql.slice(index, tagEnd + 1);
      if (tagEnd !== -1 && /^\$[A-Za-z_0-9]*\$$/.test(tag)) {
        const close = sql.indexOf(tag, tagEnd + 1);
        if (close === -1) throw refused('A dollar-quoted string is not closed.');
        out += sql.slice(index, close + tag.length);
        index = close + tag.length;
      } else {
        throw refused('Parameters are written :name, not $name.');
      }
    } else if (char === '?') {
      throw refused('Positional parameters (?) are not allowed: name them, as in :code.');
    } else if (char === ':' && next === ':') {
      out += '::';
      index += 2;
    } else if (char === ':' && next !== undefined && IDENT_START.test(next) && sql[index - 1] !== ':') {
      let end = index + 1;
      while (end < length && IDENT_PART.test(sql[end] as string)) end += 1;
      const name = sql.slice(index + 1, end);
      let position = names.indexOf(name);
      if (position === -1) {
        names.push(name);
        position = names.length - 1;
      }
      out += placeholder(position, name);
      index = end;
    } else {
      out += char;
      index += 1;
    }
  }
  return { text: dropTrailingSemicolon(out), names };
}

function closingQuote(sql: string, start: number, quote: string): number {
  let index = start + 1;
  // E'…' strings of PostgreSQL escape with a backslash; elsewhere a doubled quote is the escape.
  const backslashes = quote === "'" && start > 0 && /[eE]/.test(sql[start - 1] as string);
  while (index < sql.length) {
    const char = sql[index];
    if (backslashes && char === '\\') {
      index += 2;
      continue;
    }
    if (char === quote) {
      if (sql[index + 1] === quote) {
        index += 2;
        continue;
      }
      return index + 1;
    }
    index += 1;
  }
  throw refused('A quoted string or name is not closed.');
}

function closingComment(sql: string, start: number): number {
  let depth = 0;
  let index = start;
  while (index < sql.length) {
    if (sql.startsWith('/*', index)) {
      depth += 1;
      index += 2;
    } else if (sql.startsWith('*/', index)) {
      depth -= 1;
      index += 2;
      if (depth === 0) return index;
    } else {
      index += 1;
    }
  }
  throw refused('A comment is not closed.');
}

/** Removes trailing `;` (and the blanks around them) so the statement can sit inside a subquery. */
function dropTrailingSemicolon(text: string): string {
  return text.replace(/[\s;]+$/u, '');
}

/** The values of `names`, in order; a name without a value is refused (nothing runs). */
export function valuesFor(names: string[], params: Record<string, ParamValue>): ParamValue[] {
  return names.map((name) => {
    if (!Object.hasOwn(params, name)) throw refused(`The parameter :${name} has no value.`);
    const value = params[name];
    if (value === undefined) throw refused(`The parameter :${name} has no value.`);
    if (typeof value === 'number' && !Number.isFinite(value)) throw refused(`The parameter :${name} is not a number.`);
    return value;
  });
}

/** A name quoted as an SQL identifier (both engines use double quotes). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The ORDER BY of a table's page (empty without a sort): each column must be one of the result's,
 * and is quoted as an identifier, so the caller's text never reaches the SQL as SQL.
 */
export function pageOrderBy(
  columnNames: readonly string[],
  sort: readonly { column: string; direction: 'asc' | 'desc' }[],
): string {
  const names = new Set(columnNames);
  for (const order of sort) {
    if (!names.has(order.column)) throw refused(`The result has no column ${order.column} to sort by.`);
  }
  if (sort.length === 0) return '';
  return ` ORDER BY ${sort.map((order) => `${quoteIdentifier(order.column)} ${order.direction === 'desc' ? 'DESC' : 'ASC'}`).join(', ')}`;
}

/** A chart's, KPI's or option list's answer when its result has more rows than `rowCap`. */
export function tooLargeForCap(rowCap: number): AppError {
  return new AppError(
    'result_too_large',
    `The query returns more than ${rowCap} rows: aggregate it (GROUP BY) or filter it for a chart or KPI.`,
  );
}

/** A statement's text wrapped so the engine can count, page, sort and describe its result. */
export function wrapResult(text: string): string {
  return `(\n${text}\n) AS studio_result`;
}

/** A run's answer when it was stopped at its time limit. */
export function queryTimedOut(timeoutMs: number): AppError {
  return new AppError(
    'query_timeout',
    `The query ran longer than ${timeoutMs / 1000} s and was stopped: filter or aggregate it so it reads less.`,
  );
}

/** The first line of an error's message (the rest is the engine's context, not the caller's). */
export function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
