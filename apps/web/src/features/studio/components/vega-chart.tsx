import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useColorScheme, useTheme } from '@mui/material/styles';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { earlyDrawing } from '../chart/early-drawings.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { ApiError, errorText } from '../../../lib/api-error.js';
import { CHART_LOOKS, fullChartSpec } from '@dataplatform/contract';
import { drawChartPicture } from '../chart/chart-picture.js';
import { specProblem } from '../chart/chart-spec.js';

/** The server's refusal to draw a chart, told as it is. */
class ChartRefused extends Error {}

/** What React puts in a chart's box: nothing; the drawing is put there by hand. */
const EMPTY_HTML = { __html: '' };

/** How long a resize settles before the chart is drawn again at the new width. */
const RESIZE_SETTLE_MS = 150;

/** The element's content width in whole pixels, followed as it resizes (after it settles). */
function useContentWidth(element: RefObject<HTMLElement | null>): number | undefined {
  const [width, setWidth] = useState<number>();
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    let settle: ReturnType<typeof setTimeout> | undefined;
    let measured = false;
    // A ResizeObserver reports once on observe (the first width, taken at once), then on each change.
    const observer = new ResizeObserver(() => {
      const measure = () => setWidth(Math.round(target.clientWidth));
      clearTimeout(settle);
      if (measured) settle = setTimeout(measure, RESIZE_SETTLE_MS);
      else measure();
      measured = true;
    });
    observer.observe(target);
    return () => {
      clearTimeout(settle);
      observer.disconnect();
    };
  }, [element]);
  return width;
}

/**
 * Vega's SVG text as a node of this document (Vega escapes the text and URLs it writes), hidden from
 * screen readers as the live view is: the chart's element is the image, named by its description.
 */
function svgNode(svg: string): Node {
  const root = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
  if (root.namespaceURI !== 'http://www.w3.org/2000/svg') throw new Error('The chart picture is not SVG.');
  root.setAttribute('aria-hidden', 'true');
  return document.importNode(root, true);
}

/**
 * A Vega-Lite chart of the rows a block's query answered. A saved report's chart is first the SVG the
 * server drew of it (`picture`, decision 064): the page inlines it and runs no Vega for it. Otherwise
 * (the editor's preview, the agent's answers) it is drawn as a picture in a worker, so Vega's work
 * stays off the page's main thread (decision 055). When a person points at it, the live view (with
 * tooltips) loads and takes its place. This module has no Vega in it. Colours come from the app's
 * theme, the same the server draws with (CHART_LOOKS).
 */
export default function VegaChart({
  spec,
  values,
  description,
  picture,
  early,
}: {
  spec: Record<string, unknown>;
  values: Record<string, unknown>[];
  description: string;
  /** The server's SVG of the chart at a width and theme; absent: drawn in the browser. */
  picture?: (theme: 'light' | 'dark', width: number, signal: AbortSignal) => Promise<string>;
  /** Where the frame's script may have asked for the server's drawing (chart/early-drawings.ts). */
  early?: string;
}) {
  const element = useRef<HTMLDivElement>(null);
  const width = useContentWidth(element);
  const [live, setLive] = useState(false);
  // What to tell of a chart that could not be drawn; undefined when it was.
  const [failure, setFailure] = useState<string>();
  // Until the first drawing is in: a loading line (a redrawing chart keeps its last drawing meanwhile).
  const [drawn, setDrawn] = useState(false);
  const theme = useTheme();
  // The scheme in use (the toggle, or the system's when it decides): the chart is drawn again in its
  // colours (CHART_LOOKS: SVG attributes cannot resolve the palette's CSS variables).
  const { mode: chosen, systemMode } = useColorScheme();
  const mode = chosen === 'system' ? systemMode : (chosen ?? theme.palette.mode);

  // The server's drawing needs neither the spec nor the rows here (the server runs the block itself):
  // it starts with the block's run, not after it, and new rows of the same drawing draw nothing again.
  // The browser's drawing (no server drawing, one that failed, or the live view) follows the rows.
  const [serverFailed, setServerFailed] = useState(false);
  const fromServer = picture !== undefined && !live && !serverFailed;
  const inputs = fromServer ? undefined : { spec, values, description };
  const inputSpec = inputs?.spec;
  const inputValues = inputs?.values;
  const inputDescription = inputs?.description;

  // A drawing the frame's script already has is on screen from the first paint: the frame's box
  // may hold it already (put there by that script), the viewer's is given it here. The drawing at the
  // measured width and theme follows as for every chart.
  useLayoutEffect(() => {
    const text = early === undefined ? undefined : earlyDrawing(early)?.text;
    const target = element.current;
    if (!target || typeof text !== 'string') return;
    if (!target.firstChild) target.replaceChildren(svgNode(text));
    setDrawn(true);
  }, [early]);

  useEffect(() => {
    const target = element.current;
    if (!target || !width) return;
    const scheme = mode === 'dark' ? 'dark' : 'light';
    let cancelled = false;
    const aborted = new AbortController();
    let finalize: (() => void) | undefined;
    const shown = (svg: string) => {
      target.replaceChildren(svgNode(svg));
      setDrawn(true);
      setFailure(undefined);
    };
    const draw = async () => {
      if (picture && !live && !serverFailed) {
        const svg = await picture(scheme, width, aborted.signal).catch((error: unknown) => {
          // The server refused the spec (chart_refused): the browser would not draw it either.
          if (error instanceof ApiError && error.status === 422) throw new ChartRefused(errorText(error));
          return null;
        });
        if (cancelled) return;
        // A drawing the server could not make for another reason (a network that failed) is drawn here.
        if (svg === null) setServerFailed(true);
        else shown(svg);
        return;
      }
      const full = fullChartSpec(
        inputSpec ?? {},
        inputValues ?? [],
        inputDescription ?? '',
        CHART_LOOKS[scheme],
        width,
      );
      if (!live) {
        const svg = await drawChartPicture(full);
        if (cancelled) return;
        if (svg !== null) {
          shown(svg);
          return;
        }
      }
      // Pointed at, or a browser whose workers cannot draw: the live view.
      const { drawLiveChart } = await import('../chart/live-chart.js');
      if (cancelled) return;
      finalize = await drawLiveChart(target, full, () => cancelled);
      if (cancelled) return;
      setDrawn(true);
      setFailure(undefined);
    };
    draw().catch((error: unknown) => {
      if (cancelled) return;
      target.replaceChildren();
      setDrawn(true);
      if (error instanceof ChartRefused) setFailure(error.message);
      else {
        const problem = specProblem(error);
        setFailure(
          problem ? `The chart could not be drawn: ${problem}` : 'The chart could not be drawn from its spec.',
        );
      }
    });
    return () => {
      cancelled = true;
      aborted.abort();
      finalize?.();
    };
  }, [inputSpec, inputValues, inputDescription, mode, width, live, picture, serverFailed]);

  // The SVG is a picture of the numbers: a screen reader gets the description here and the numbers
  // from "View as table".
  // Its children are this component's own (set above, never by React): `dangerouslySetInnerHTML`
  // keeps React from reading them as it hydrates a prerendered frame whose script filled it.
  // The loading line follows the box, hidden once the box holds a drawing, whoever put it there.
  return (
    <>
      <Box
        ref={element}
        role="img"
        aria-label={description}
        data-early-drawing={early}
        onPointerEnter={() => setLive(true)}
        dangerouslySetInnerHTML={EMPTY_HTML}
        sx={{
          width: '100%',
          color: 'text.secondary',
          borderColor: 'divider',
          '&:not(:empty) + [role="status"]': { display: 'none' },
        }}
      />
      {!drawn && <LoadingLine sx={{ color: 'text.secondary' }}>Drawing the chart...</LoadingLine>}
      {failure !== undefined && (
        <Typography role="alert" variant="body2" color="error">
          {failure}
        </Typography>
      )}
    </>
  );
}
