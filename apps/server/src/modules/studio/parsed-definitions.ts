import { parseReportDefinition, type ReportParseResult } from '@dataplatform/contract';
import { LRUCache } from 'lru-cache';

/**
 * How many definition texts keep their parse. A text is at most REPORT_DEFINITION_MAX characters, so
 * the cache holds a few tens of MB at the very worst and a few hundred KB for reports of usual size.
 */
const PARSED_DEFINITION_ENTRIES = 100;

const parsedDefinitions = new LRUCache<string, ReportParseResult & { ok: true }>({ max: PARSED_DEFINITION_ENTRIES });

/** Freezes a parsed definition all the way down: one object is handed to every run of its text. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * `parseReportDefinition`, remembered for the texts that parsed most recently. A dashboard runs each
 * of its blocks in a request of its own, and the editor's preview does the same for one unsaved text,
 * so one text is read many times in a row; parsing a 4 KB definition takes about a millisecond. The
 * parse depends on the text alone, so the cache needs no invalidation, and the definition it gives is
 * frozen: a run that tried to change it would throw rather than change the next run's report. Texts
 * that do not parse are not kept: the editor checks a text itself before it previews it, so such a
 * text comes from a client that skips that check, and it would only push out texts in use. Whatever
 * is sent, the cache stays within its count of entries.
 */
export function parseDefinition(text: string): ReportParseResult {
  const known = parsedDefinitions.get(text);
  if (known) return known;
  const parsed = parseReportDefinition(text);
  if (parsed.ok) parsedDefinitions.set(text, deepFreeze(parsed));
  return parsed;
}
