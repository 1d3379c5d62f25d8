// Vega exports `textMetrics` (from vega-scenegraph) at run time, but vega-typings leaves it out. Its
// `width` is what Vega calls to measure a line of a text item, and what a host replaces to measure
// text its own way (chart-drawing.ts).
import 'vega';

declare module 'vega' {
  export const textMetrics: {
    width: (item: Record<string, unknown>, text: string | number | null | undefined) => number;
  };
}
