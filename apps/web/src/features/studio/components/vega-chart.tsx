import Box from '@mui/material/Box';
import { useColorScheme, useTheme } from '@mui/material/styles';
import { useEffect, useRef } from 'react';
import embed from 'vega-embed';
import { expressionInterpreter } from 'vega-interpreter';

/**
 * A Vega-Lite chart of the rows a block's query answered. This module (and Vega with it) loads
 * only with a report's first chart. Expressions go through Vega's interpreter, not `new Function`,
 * so the page's Content-Security-Policy (script-src 'self') holds. Colours come from the app's theme.
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
    let finalize: (() => void) | undefined;
    let cancelled = false;
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
    void embed(target, full as never, {
      actions: false,
      ast: true,
      expr: expressionInterpreter,
      renderer: 'svg',
      defaultStyle: false,
    }).then((result) => {
      if (cancelled) result.finalize();
      else finalize = () => result.finalize();
    });
    return () => {
      cancelled = true;
      finalize?.();
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
