// Draws a chart's picture off the page's main thread: Vega-Lite's compile, Vega's parse and the
// scene's layout are the heaviest script work of a report (bench/results/2026-11-28-chart-worker.md)
// and none of them needs a document. The page inserts the SVG text this answers (decision 055).
import { logger, parse, textMetrics, View, Warn } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { PictureReply, PictureRequest } from './chart-picture-protocol.js';
import { specProblem } from './chart-spec.js';

// Vega measures text on a canvas it makes from `document`, which a worker lacks, and would fall back to
// a rough estimate (0.8 em a character), laying axes and legends out wider than the live view does.
// Vega reads `textMetrics.width` for every measurement and supports replacing it (it names vl-convert
// as a user); an OffscreenCanvas measures with the same fonts as the page's canvas.
const measuring = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
if (measuring) {
  textMetrics.width = (item, text) => {
    const line = text == null ? '' : String(text).trim();
    const size = item.fontSize == null ? 11 : Number(item.fontSize) || 0;
    if (size <= 0 || line === '') return 0;
    measuring.font = [item.fontStyle, item.fontVariant, item.fontWeight, `${size}px`, item.font || 'sans-serif']
      .filter(Boolean)
      .join(' ');
    const width = measuring.measureText(line).width;
    // A label longer than its limit is drawn cut to it with an ellipsis.
    const limit = Number(item.limit) || 0;
    return limit > 0 ? Math.min(width, limit) : width;
  };
}

async function draw(request: PictureRequest): Promise<PictureReply> {
  if (!measuring) return { id: request.id, unsupported: true };
  const log = logger(Warn);
  try {
    const vegaSpec = compile(request.spec as unknown as TopLevelSpec, { logger: log }).spec;
    const view = new View(parse(vegaSpec, undefined, { ast: true }), {
      renderer: 'none',
      logger: log,
      // Expressions through Vega's interpreter, not `new Function`: the worker runs under the page's
      // Content-Security-Policy (script-src 'self') too.
      expr: expressionInterpreter,
    });
    try {
      return { id: request.id, svg: await view.toSVG() };
    } finally {
      view.finalize();
    }
  } catch (error) {
    return { id: request.id, error: specProblem(error) };
  }
}

addEventListener('message', (event: MessageEvent<PictureRequest>) => {
  void draw(event.data).then((reply) => postMessage(reply));
});
