import { logger, parse, View, Warn } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile, type TopLevelSpec } from 'vega-lite';
import { Handler } from 'vega-tooltip';

/** Resolves in a later task, so the work after it does not lengthen the current one. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Draws a live Vega view of `spec` into `target`, with tooltips, and resolves to a function that
 * finalizes it (the view's listeners and timers). Loaded only when a person points at a chart or where
 * a worker cannot draw its picture (decision 055). The spec is compiled with Vega-Lite's `compile` and
 * drawn by Vega's `View` directly: vega-embed added an action menu, themes, JSON patching and version
 * checks, none of which the viewer uses (bench/results/2026-11-27-chart-chunk.md). Expressions go
 * through Vega's interpreter (`ast: true`), not `new Function`, so the page's Content-Security-Policy
 * (script-src 'self') holds. Rejects with Vega-Lite's error for a spec it cannot compile.
 */
export async function drawLiveChart(
  target: HTMLElement,
  spec: Record<string, unknown>,
  isCancelled: () => boolean,
): Promise<() => void> {
  // The effect that asks for a chart may run before the next frame (after a key press or a click):
  // first let the browser paint what else changed. Then compiling, parsing and drawing are each a task
  // of their own: on a slow phone they are a few frames of work apiece, and between them the page
  // answers input and paints.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  if (isCancelled()) return () => undefined;
  const log = logger(Warn);
  const vegaSpec = compile(spec as unknown as TopLevelSpec, { logger: log }).spec;
  await nextTask();
  if (isCancelled()) return () => undefined;
  const runtime = parse(vegaSpec, undefined, { ast: true });
  await nextTask();
  if (isCancelled()) return () => undefined;
  const view = new View(runtime, {
    renderer: 'svg',
    logger: log,
    expr: expressionInterpreter,
    // The HTML tooltip vega-embed showed for `tooltip: true` on a mark (Vega's own handler would put
    // the datum in the role="img" element's title instead).
    tooltip: new Handler().call,
  });
  // Built off the page (the spec's width is in pixels: nothing is measured from the DOM), then swapped
  // in whole: the picture it replaces stays until then.
  const holder = document.createElement('div');
  // The chart's element is the image, named by its description; Vega's own roles and labels inside
  // it would name it twice.
  holder.setAttribute('aria-hidden', 'true');
  await view.initialize(holder).runAsync();
  if (isCancelled()) {
    view.finalize();
    return () => undefined;
  }
  target.replaceChildren(holder);
  return () => view.finalize();
}
