// No zod here: the web's viewer chunk builds chart specs and drawing paths from these.

// A chart block's drawing (issue 59): the Vega-Lite spec the server draws to SVG or PNG and the web's
// live view draws alike, from the same function and the same theme colours.

/** The app's themes a chart is drawn in. */
export const CHART_THEMES = ['light', 'dark'] as const;
export type ChartTheme = (typeof CHART_THEMES)[number];

/** What the page's theme decides in a chart: colours (an SVG attribute cannot resolve a CSS variable), the font, the paper a PNG is drawn on. */
export interface ChartLook {
  text: string;
  grid: string;
  font: string;
  background: string;
}

/** The app's font stack (apps/web/src/app/theme.tsx). */
export const CHART_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/** MUI's secondary text and divider colours over the app's paper, in each theme. */
export const CHART_LOOKS: Record<ChartTheme, ChartLook> = {
  light: { text: 'rgba(0, 0, 0, 0.6)', grid: 'rgba(0, 0, 0, 0.12)', font: CHART_FONT, background: '#ffffff' },
  dark: {
    text: 'rgba(255, 255, 255, 0.7)',
    grid: 'rgba(255, 255, 255, 0.12)',
    font: CHART_FONT,
    background: '#111a2e',
  },
};

/** A drawing's width in pixels: the chart's container on the page (a phone's is about 330). */
export const CHART_WIDTH_MIN = 120;
export const CHART_WIDTH_MAX = 2000;
export const CHART_WIDTH_DEFAULT = 640;

/** What a query string names a report parameter by: `param.code=99213`. */
export const CHART_PARAM_PREFIX = 'param.';

/** The report parameters a drawing's query names, without their prefix. */
export function chartParams(query: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key.startsWith(CHART_PARAM_PREFIX) && typeof value === 'string')
      params[key.slice(CHART_PARAM_PREFIX.length)] = value;
  }
  return params;
}

/** The formats a chart is drawn in. */
export type ChartFormat = 'svg' | 'png';

/**
 * The block's spec with its rows, description and the theme's look, `width` pixels wide: the chart's
 * container measured on the page, so that the server's drawing and the live view lay out alike.
 */
export function fullChartSpec(
  spec: Record<string, unknown>,
  values: Record<string, unknown>[],
  description: string,
  look: Pick<ChartLook, 'text' | 'grid' | 'font'>,
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
