/**
 * A chart's drawing the page's first script asked for while the HTML was still arriving
 * (features/studio/early-drawings-script.js, in a showcase report's prerendered frame, decision 064), so the
 * chart is on screen before the app has run. Kept by the drawing's address without its theme and
 * width (the box's `data-early-drawing`); the app takes it instead of asking again when it was drawn
 * in the theme and at the width the app needs.
 */
export interface EarlyDrawing {
  theme: string;
  width: number;
  /** The SVG, or null when the server did not answer with one. */
  svg: Promise<string | null>;
  /** The same once it has arrived. */
  text?: string | null;
}

declare global {
  interface Window {
    earlyChartDrawings?: Record<string, EarlyDrawing>;
  }
}

/** The drawing asked for early at `address`, if the page's first script asked for one. */
export function earlyDrawing(address: string): EarlyDrawing | undefined {
  const drawings = typeof window === 'undefined' ? undefined : window.earlyChartDrawings;
  return drawings && Object.hasOwn(drawings, address) ? drawings[address] : undefined;
}
