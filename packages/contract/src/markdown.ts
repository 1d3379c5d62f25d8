import { micromark } from 'micromark';

/**
 * A report's text block as HTML (STUDIO-VIEW-2): CommonMark, rendered by micromark with its safe
 * defaults, so HTML written in the definition shows as text and links with a dangerous protocol
 * (`javascript:`, `data:` …) lose their target. The server sends it with the report and the
 * editor's preview renders an unsaved block with the same function, so the two always agree.
 * A subpath of its own (`@dataplatform/contract/markdown`): the viewer never loads the parser.
 */
export function reportTextHtml(markdown: string): string {
  return micromark(markdown);
}
