// The Vega-Lite spec a chart block is drawn from, the same for the picture drawn in the worker and for
// the live view. No Vega here: this module is in the viewer's chunk.

/** What the page's theme decides in a chart: colours as computed (an SVG attribute cannot resolve a CSS variable) and the font. */
export interface ChartLook {
  text: string;
  grid: string;
  font: string;
}

/**
 * The block's spec with its rows, description and the theme's look, `width` pixels wide: the chart's
 * container measured on the page, as a worker has no container to measure, and the picture and the
 * live view must lay out alike.
 */
export function fullChartSpec(
  spec: Record<string, unknown>,
  values: Record<string, unknown>[],
  description: string,
  look: ChartLook,
  width: number,
): Record<string, unknown> {
  const { text, grid, font } = look;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width,
    autosize: { type: 'fit', contains: 'padding' },
    description,
    ...spec,
    data: { values },
    config: {
      background: 'transparent',
      font,
      axis: { labelColor: text, titleColor: text, gridColor: grid, domainColor: grid, tickColor: grid },
      legend: { labelColor: text, titleColor: text },
      title: { color: text },
      view: { stroke: 'transparent' },
      ...(typeof spec.config === 'object' && spec.config !== null ? spec.config : {}),
    },
  };
}

/**
 * What to tell a reader about a chart that could not be drawn: the message of an error Vega or
 * Vega-Lite raised about the spec (a plain `Error`), or '' for a fault inside the library (a
 * `TypeError` about undefined properties says nothing to a report's reader).
 */
export function specProblem(error: unknown): string {
  return error instanceof Error && error.constructor === Error ? error.message : '';
}
