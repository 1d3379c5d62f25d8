import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useColorScheme, useTheme } from '@mui/material/styles';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { LoadingLine } from '../../../components/loading-line.js';
import { drawChartPicture } from '../chart/chart-picture.js';
import { fullChartSpec, specProblem } from '../chart/chart-spec.js';

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
 * A Vega-Lite chart of the rows a block's query answered (decision 055). It is first drawn as a
 * picture in a worker, so Vega's work stays off the page's main thread; when a person points at it,
 * the live view (with tooltips) loads and takes its place. This module has no Vega in it: the worker
 * loads with the report's first chart, the live view with the first pointer on a chart. Colours come
 * from the app's theme.
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
  const width = useContentWidth(element);
  const [live, setLive] = useState(false);
  // Why the chart could not be drawn ('' when Vega gave no reason worth telling); undefined when it was.
  const [failure, setFailure] = useState<string>();
  // Until the first drawing is in: a loading line (a redrawing chart keeps its last drawing meanwhile).
  const [drawn, setDrawn] = useState(false);
  const theme = useTheme();
  // The palette may hold CSS variables, which SVG attributes cannot resolve: the colours as computed,
  // drawn again when the scheme in use changes (the toggle, or the system's when it decides).
  const { mode: chosen, systemMode } = useColorScheme();
  const mode = chosen === 'system' ? systemMode : (chosen ?? theme.palette.mode);

  useEffect(() => {
    const target = element.current;
    if (!target || !width) return;
    const style = getComputedStyle(target);
    const look = { text: style.color, grid: style.borderColor, font: theme.typography.fontFamily ?? 'sans-serif' };
    const full = fullChartSpec(spec, values, description, look, width);
    let cancelled = false;
    let finalize: (() => void) | undefined;
    const draw = async () => {
      if (!live) {
        const svg = await drawChartPicture(full);
        if (cancelled) return;
        if (svg !== null) {
          target.replaceChildren(svgNode(svg));
          setDrawn(true);
          setFailure(undefined);
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
      setFailure(specProblem(error));
    });
    return () => {
      cancelled = true;
      finalize?.();
    };
  }, [spec, values, description, mode, theme.typography.fontFamily, width, live]);

  // The SVG is a picture of the numbers: a screen reader gets the description here and the numbers
  // from "View as table".
  return (
    <>
      {!drawn && <LoadingLine sx={{ color: 'text.secondary' }}>Drawing the chart...</LoadingLine>}
      <Box
        ref={element}
        role="img"
        aria-label={description}
        onPointerEnter={() => setLive(true)}
        sx={{ width: '100%', color: 'text.secondary', borderColor: 'divider' }}
      />
      {failure !== undefined && (
        <Typography role="alert" variant="body2" color="error">
          {failure ? `The chart could not be drawn: ${failure}` : 'The chart could not be drawn from its spec.'}
        </Typography>
      )}
    </>
  );
}
