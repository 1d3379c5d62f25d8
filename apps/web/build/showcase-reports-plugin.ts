import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { BUILT_IN_REPORT_SLUGS } from '../../../packages/contract/src/studio-reports-constants.js';
import { parseReportDefinition, publicReportParams } from '../../../packages/contract/src/studio-reports.js';
import { sharedReportBlock } from '../../../packages/contract/src/studio-sharing.js';

const MODULE_ID = 'virtual:showcase-reports';
const RESOLVED_ID = `\0${MODULE_ID}`;
/** The built-in reports' definitions: the server loads the same files (modules/studio/built-in-reports.ts). */
const DEFINITIONS_DIR = new URL('../../server/src/modules/studio/built-in-reports/', import.meta.url);

/**
 * What a built-in report shows above its first chart, read from its definition: its parameters and
 * its blocks up to and including the first chart. Text blocks are Markdown the server renders: the
 * first screen of a built-in report must not hold one.
 */
export function firstScreenOf(text: string, slug: string) {
  const parsed = parseReportDefinition(text);
  if (!parsed.ok) throw new Error(`built-in report ${slug} is invalid: ${JSON.stringify(parsed.problems)}`);
  const { blocks } = parsed.definition;
  const firstChart = blocks.findIndex((block) => block.chart !== undefined);
  return {
    params: publicReportParams(parsed.definition),
    blocks: blocks.slice(0, firstChart + 1).map((block) =>
      sharedReportBlock(block, () => {
        throw new Error(`built-in report ${slug}: a text block above its first chart cannot be drawn in its frame`);
      }),
    ),
  };
}

/**
 * `virtual:showcase-reports`: each built-in report's first screen (firstScreenOf), made at build time
 * from the definitions, so the showcase pages' prerendered frame lays out the same parameter bar and
 * blocks the viewer then fills (decision 064) without a YAML parser in the page.
 */
export function showcaseReportsPlugin(): Plugin {
  return {
    name: 'showcase-reports',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const screens = Object.fromEntries(
        BUILT_IN_REPORT_SLUGS.map((slug) => {
          const file = new URL(`${slug}.yaml`, DEFINITIONS_DIR);
          this.addWatchFile(file.pathname);
          return [slug, firstScreenOf(readFileSync(file, 'utf8'), slug)];
        }),
      );
      return `export default ${JSON.stringify(screens)};`;
    },
  };
}
