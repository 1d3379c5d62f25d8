// Where a report's blocks sit, as numbers the prerendered frame, the viewer and the data started
// before hydration (app/early-data.ts) agree on. No imports: block-frame.tsx, in every page that
// draws a block, reads it.

/**
 * Marks the box a showcase report's blocks are laid out in, in its prerendered frame and in the
 * viewer, so the width its charts will have is known before the viewer renders.
 */
export const REPORT_AREA_ATTRIBUTE = 'data-report-area';

/** A block's card: its padding (BlockFrame's) and its outline, on each side. */
export const BLOCK_PADDING_PX = 16;
const BLOCK_OUTLINE_PX = 1;

/**
 * The width a chart block will be drawn at in a report area: a chart spans the area, inside its
 * card's padding and outline (what VegaChart measures once it renders).
 */
export function chartWidthIn(area: Element): number {
  const style = getComputedStyle(area);
  const content = area.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
  return Math.round(content - 2 * (BLOCK_PADDING_PX + BLOCK_OUTLINE_PX));
}
