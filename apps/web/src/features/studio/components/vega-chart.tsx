import Box from '@mui/material/Box';
import { useColorScheme, useTheme } from '@mui/material/styles';
import { useEffect, useRef } from 'react';
import { logger, parse, View, Warn } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile, type TopLevelSpec } from 'vega-lite';
import { Handler } from 'vega-tooltip';

/** Resolves in a later task, so the work after it does not lengthen the current one. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A Vega-Lite chart of the rows a block's query answered. This module (and Vega with it) loads
 * only with a report's first chart. The spec is compiled with Vega-Lite's `compile` and drawn by
 * Vega's `View` directly: vega-embed added its action menu, themes, JSON patching and version checks,
 * none of which the viewer uses (bench/results/2026-11-27-chart-chunk.md).
 * Expressions go through Vega's interpreter (`ast: true`), not `new Function`, so the page's
 * Content-Security-Policy (script-src 'self') holds. Colours come from the app's theme.
 */
export default function VegaChart({
  spec,
  values,
  description,
}: {
  spec: Record<string, unknown>;
  values: Record<string, unknown>[];
  description: string;
}) {
  const element = useRef<HTMLDivElement>(null);
  const theme = useTheme();
  // The palette may hold CSS variables, which SVG attributes cannot resolve: the colours as computed,
  // drawn again when the scheme in use changes (the toggle, or the system's when it decides).
  const { mode: chosen, systemMode } = useColorScheme();
  const mode = chosen === 'system' ? systemMode : (chosen ?? theme.palette.mode);

  useEffect(() => {
    const target = element.current;
    if (!target) return;
    let view: View | undefined;
    const style = getComputedStyle(target);
    const text = style.color;
    const grid = style.borderColor;
    const full = {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      width: 'container',
      autosize: { type: 'fit', contains: 'padding' },
      description,
      ...spec,
      data: { values },
      config: {
        background: 'transparent',
        font: theme.typography.fontFamily,
        axis: { labelColor: text, titleColor: text, gridColor: grid, domainColor: grid, tickColor: grid },
        legend: { labelColor: text, titleColor: text },
        title: { color: text },
        view: { stroke: 'transparent' },
        ...(typeof spec.config === 'object' && spec.config !== null ? spec.config : {}),
      },
    };
    // Async so that a spec Vega-Lite cannot compile rejects a promise, as vega-embed's did, instead
    // of throwing out of the effect. It first lets the browser paint: an effect of a key press or a
    // click runs before the next frame, and compiling and drawing a chart is the heaviest work of a
    // parameter change, so the other blocks' new figures show first and the chart follows.
    // Compiling, parsing and drawing are each a task of their own (`nextTask`): on a slow phone they
    // are a few frames of work apiece, and between them the page answers input and paints.
    let cancelled = false;
    const draw = async () => {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      if (cancelled) return;
      const log = logger(Warn);
      const vgSpec = compile(full as TopLevelSpec, { logger: log }).spec;
      await nextTask();
      if (cancelled) return;
      const runtime = parse(vgSpec, undefined, { ast: true });
      await nextTask();
      if (cancelled) return;
      view = new View(runtime, {
        renderer: 'svg',
        logger: log,
        expr: expressionInterpreter,
        // The HTML tooltip vega-embed showed for `tooltip: true` on a mark (Vega's own handler would
        // put the datum in the role="img" element's title instead).
        tooltip: new Handler().call,
      });
      target.replaceChildren();
      await view.initialize(target).runAsync();
    };
    void draw();
    return () => {
      cancelled = true;
      view?.finalize();
    };
  }, [spec, values, description, mode, theme.typography.fontFamily]);

  // The SVG is a picture of the numbers: a screen reader gets the description here and the numbers
  // from "View as table".
  return (
    <Box
      ref={element}
      role="img"
      aria-label={description}
      sx={{ width: '100%', color: 'text.secondary', borderColor: 'divider' }}
    />
  );
}
