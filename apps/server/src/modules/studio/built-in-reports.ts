import { readFileSync } from 'node:fs';
import { BUILT_IN_REPORT_HEADERS, type ReportDefinition } from '@dataplatform/contract';
import { parseDefinition } from './parsed-definitions.js';

/**
 * The reports every signed-in user sees, on the demo source (STUDIO-REPORT-6): they ship with the
 * server, are never rows of `reports`, and cannot be changed, deleted or restored. Their ids are
 * fixed so links to them last; their texts are checked by the same schema as anyone's.
 */

/**
 * Where their texts are: one YAML file each, named by its slug, served byte for byte (the build
 * copies the folder beside the compiled code, as it does Learn's lessons).
 */
const BUILT_IN_REPORTS_DIR = new URL('./built-in-reports/', import.meta.url);

export interface BuiltInReport {
  id: string;
  slug: string;
  text: string;
  definition: ReportDefinition;
}

/** When the built-in texts last changed: their one version's time. */
export const BUILT_IN_REPORTS_UPDATED_AT = new Date('2026-11-26T00:00:00Z');

function builtIn(slug: keyof typeof BUILT_IN_REPORT_HEADERS): BuiltInReport {
  const text = readFileSync(new URL(`${slug}.yaml`, BUILT_IN_REPORTS_DIR), 'utf8');
  // Frozen like every shared definition (parsed-definitions.ts).
  const parsed = parseDefinition(text);
  // A test parses them too; failing here means a broken text never reaches a user.
  if (!parsed.ok) throw new Error(`built-in report ${slug} is invalid: ${JSON.stringify(parsed.problems)}`);
  // The web app's showcase frame draws the header from the contract before the report arrives.
  const { title, description, source } = parsed.definition;
  const header = BUILT_IN_REPORT_HEADERS[slug];
  if (title !== header.title || description !== header.description || source !== header.source) {
    throw new Error(`built-in report ${slug}: its title, description or source differs from BUILT_IN_REPORT_HEADERS`);
  }
  return { id: header.id, slug, text, definition: parsed.definition };
}

/** In the order lists show them: first, before any tenant's own. */
export const BUILT_IN_REPORTS: readonly BuiltInReport[] = [
  builtIn('payer'),
  builtIn('hospital-prices'),
  builtIn('cms-fs'),
];
