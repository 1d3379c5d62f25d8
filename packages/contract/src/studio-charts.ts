import './zod-config.js';
import { z } from 'zod';
import { queryInteger } from './common.js';
import {
  CHART_PARAM_PREFIX,
  CHART_THEMES,
  CHART_WIDTH_DEFAULT,
  CHART_WIDTH_MAX,
  CHART_WIDTH_MIN,
} from './studio-charts-constants.js';

/**
 * `GET …/charts/{block}.svg|png`: the theme, the width, and each parameter as `param.<name>` (the
 * others take their defaults). Anything else is a 422.
 */
export const ChartDrawingQuerySchema = z
  .object({
    theme: z.enum(CHART_THEMES).default('light'),
    width: queryInteger(CHART_WIDTH_MIN, CHART_WIDTH_MAX).default(CHART_WIDTH_DEFAULT),
  })
  .catchall(z.string().max(1000))
  .superRefine((query, context) => {
    for (const key of Object.keys(query)) {
      if (key === 'theme' || key === 'width' || key.startsWith(CHART_PARAM_PREFIX)) continue;
      context.addIssue({
        code: 'custom',
        path: [key],
        message: `Unknown query parameter: use theme, width or ${CHART_PARAM_PREFIX}<name>`,
      });
    }
  });

/** `…/charts/{block}.svg|png`: the report and its chart block. */
export const ChartBlockParamsSchema = z.object({
  report_id: z.string().min(1).max(100),
  block: z.string().min(1).max(100),
});

/** `/public/{token}/charts/{block}.svg|png`: a share link's report and its chart block. */
export const SharedChartParamsSchema = z.object({
  token: z.string().min(1).max(200),
  block: z.string().min(1).max(100),
});
