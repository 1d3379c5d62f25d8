import { createHash } from 'node:crypto';
import { Resvg } from '@resvg/resvg-js';
import { CHART_MARKS_MAX, reportMessages, type ChartFormat } from '@dataplatform/contract';
import { LRUCache } from 'lru-cache';
import * as vega from 'vega';
import { expressionFunction, loader as vegaLoader, logger, None, parse, View, type Loader } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile, type TopLevelSpec } from 'vega-lite';
import { AppError } from '../../../lib/errors.js';
import { helveticaWidth } from './text-width.js';

// Charts drawn in the server (issue 59, decision 064): the Vega-Lite spec the web draws, compiled by
// Vega-Lite and laid out by Vega's headless view (`renderer: 'none'`) to SVG text, and that SVG drawn
// to PNG by resvg. Nothing here reaches the network or the disk: Vega's loader refuses every load.

/** A drawing: the SVG's text, or the PNG's bytes. */
export type ChartDrawing = { format: 'svg'; body: string } | { format: 'png'; body: Buffer };

const refused = (detail: string) => new AppError('chart_refused', detail);

/**
 * A loader that loads nothing: data, images and links from a URL or a file are refused, never fetched.
 * Vega logs a failed load and draws on without it, so the loader also tells whether one was tried:
 * such a drawing is refused whole.
 */
function refusingLoader(): { loader: Loader; tried: () => boolean } {
  let tried = false;
  const refuse = () => {
    tried = true;
    return Promise.reject(refused(reportMessages.chartLoads));
  };
  const loader = Object.assign(vegaLoader(), {
    load: refuse,
    http: refuse,
    file: refuse,
    // An image's or a link's address: none (the renderer writes an empty one, and the drawing is refused).
    sanitize: () => {
      tried = true;
      return Promise.resolve({ href: '' });
    },
  });
  return { loader, tried: () => tried };
}

// `sequence(start, stop)` in a spec's expressions makes an array that `flatten` turns into as many
// rows: a spec could ask for a million marks from one row. Past the marks a drawing may hold, the
// array is cut there, and the drawing is refused for its marks instead of laying a million out.
const uncappedSequence = expressionFunction('sequence') as (...args: number[]) => number[];
expressionFunction('sequence', (...args: number[]) => {
  const [start, stop, step] = args.length === 1 ? [0, args[0]!, 1] : [args[0]!, args[1]!, args[2] ?? 1];
  const length = step === 0 ? 0 : Math.ceil((stop - start) / step);
  if (!(length > CHART_MARKS_MAX)) return uncappedSequence(...args);
  return uncappedSequence(start, start + step * (CHART_MARKS_MAX + 1), step);
});

// Vega measures text on a canvas, which Node lacks (no `canvas` package here): it would guess 0.8 em a
// character and lay axes out wider than the page does. Helvetica's widths are close to the app's
// system-ui stack for the digits and Latin letters of labels.
// Vega exports `textMetrics` (from vega-scenegraph) at run time; vega-typings leaves it out. Its `width`
// is what Vega calls to measure a line, and what a host replaces to measure its own way.
const { textMetrics } = vega as unknown as {
  textMetrics: { width: (item: Record<string, unknown>, text: string | number | null | undefined) => number };
};
textMetrics.width = (item, text) => {
  const line = text == null ? '' : String(text).trim();
  const size = item.fontSize == null ? 11 : Number(item.fontSize) || 0;
  if (size <= 0 || line === '') return 0;
  const width = helveticaWidth(line, size, Number(item.fontWeight) >= 600 || item.fontWeight === 'bold');
  const limit = Number(item.limit) || 0;
  return limit > 0 ? Math.min(width, limit) : width;
};

/** How many items the scene holds (marks, axis ticks and labels, legend entries …), counted up to `stop`. */
function sceneItems(scene: unknown, stop: number): number {
  let count = 0;
  const pending: unknown[] = [scene];
  while (pending.length > 0 && count <= stop) {
    const node = pending.pop() as { items?: unknown[] };
    if (!Array.isArray(node.items)) continue;
    count += node.items.length;
    for (const item of node.items) pending.push(item);
  }
  return count;
}

/** Elements a picture has no use for: each could run script or show another document. */
const UNSAFE_ELEMENT = /^<\/?\s*(?:(?:script|foreignobject|iframe|object|embed|use|image|a|animate|set)(?=[\s/>])|!)/i;

/**
 * Refuses SVG text a browser could do anything with but draw: a script, an event handler, embedded
 * HTML, or a reference outside the document (an `href`, a `url(` to anything but `#id`). Vega escapes
 * `<`, `&` and quotes in the text and attributes it writes, so every `<` is a tag of its own; it writes
 * none of these for the specs the contract allows (links and images come from `href`/`url` fields),
 * and a spec that makes it write one is refused rather than drawn with it.
 */
export function checkInlineSafe(svg: string): void {
  for (const [tag] of svg.matchAll(/<[^>]*>/g)) {
    if (tag.startsWith('<?xml')) continue;
    if (UNSAFE_ELEMENT.test(tag)) throw refused(reportMessages.chartLoads);
    for (const [, name = '', value = ''] of tag.matchAll(/\s([^\s=/>]+)\s*=\s*"([^"]*)"/g)) {
      const attribute = name.toLowerCase();
      if (attribute.startsWith('on') || attribute.includes('href')) throw refused(reportMessages.chartLoads);
      if (!attribute.startsWith('aria-') && /url\(\s*(?!#)/i.test(value)) throw refused(reportMessages.chartLoads);
    }
  }
}

/** The SVG of a full Vega-Lite spec (rows included), checked to be safe to inline in a page. */
async function drawSvg(spec: Record<string, unknown>): Promise<string> {
  // Vega's warnings (a failed load among them) are not the server's: a refusal says what went wrong.
  const log = logger(None);
  const guard = refusingLoader();
  let view: View;
  try {
    const vega = compile(spec as unknown as TopLevelSpec, { logger: log }).spec;
    view = new View(parse(vega, undefined, { ast: true }), {
      renderer: 'none',
      logger: log,
      loader: guard.loader,
      // Expressions through Vega's interpreter: a spec's expressions are never turned into code.
      expr: expressionInterpreter,
    });
  } catch (error) {
    throw asRefusal(error);
  }
  try {
    await view.runAsync();
    if (guard.tried()) throw refused(reportMessages.chartLoads);
    if (sceneItems((view.scenegraph() as unknown as { root: unknown }).root, CHART_MARKS_MAX) > CHART_MARKS_MAX) {
      throw refused(reportMessages.chartTooManyMarks);
    }
    const svg = await view.toSVG();
    if (guard.tried()) throw refused(reportMessages.chartLoads);
    checkInlineSafe(svg);
    return svg;
  } catch (error) {
    throw asRefusal(error);
  } finally {
    view.finalize();
  }
}

/** Vega's or Vega-Lite's complaint about a spec as a 422 naming it; a refusal of ours as it is. */
function asRefusal(error: unknown): AppError {
  if (error instanceof AppError) return error;
  // A plain Error is Vega's message about the spec; a TypeError and the like say nothing to an author.
  const detail =
    error instanceof Error && error.constructor === Error
      ? `${reportMessages.chartInvalid}: ${error.message}`
      : reportMessages.chartInvalid;
  return refused(detail);
}

/** The PNG of checked SVG text, twice the pixels (sharp on a phone and in a mail), on the theme's paper. */
function drawPng(svg: string, background: string): Buffer {
  const picture = new Resvg(svg, {
    background,
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  return picture.render().asPng();
}

/**
 * Draws charts and keeps each drawing for the time its run's result is kept: a drawing is named by
 * everything it is made of (the whole spec, rows included, the format and the paper), so a drawing of
 * other rows is never answered. Identical drawings under way are drawn once.
 */
export function createChartDrawer(options: { maxBytes?: number } = {}) {
  const drawings = new LRUCache<string, ChartDrawing>({
    maxSize: options.maxBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (drawing) => Math.max(1, drawing.body.length),
  });
  const underway = new Map<string, Promise<ChartDrawing>>();

  async function drawFresh(spec: Record<string, unknown>, format: ChartFormat, background: string) {
    const svg = await drawSvg(spec);
    if (format === 'svg') return { format, body: svg } as const;
    return { format, body: drawPng(svg, background) } as const;
  }

  return {
    /**
     * The drawing of a full spec as `format`; kept `ttlSeconds` (0: drawn every time). A spec Vega
     * cannot draw, or that loads from outside or draws too many marks, is a 422 chart_refused.
     */
    async draw(
      spec: Record<string, unknown>,
      format: ChartFormat,
      options: { background: string; ttlSeconds: number },
    ): Promise<ChartDrawing> {
      if (options.ttlSeconds <= 0) return drawFresh(spec, format, options.background);
      const key = createHash('sha256')
        .update(JSON.stringify([format, options.background, spec]))
        .digest('base64url');
      const kept = drawings.get(key);
      if (kept) return kept;
      let drawing = underway.get(key);
      if (!drawing) {
        drawing = drawFresh(spec, format, options.background).finally(() => underway.delete(key));
        underway.set(key, drawing);
      }
      const done = await drawing;
      drawings.set(key, done, { ttl: options.ttlSeconds * 1000 });
      return done;
    },
    /** How many drawings are kept (tests look at it). */
    get size(): number {
      return drawings.size;
    },
  };
}

export type ChartDrawer = ReturnType<typeof createChartDrawer>;
