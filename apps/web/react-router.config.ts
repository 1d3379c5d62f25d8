import type { Config } from '@react-router/dev/config';
import { finishBuild } from './build/finish-build.js';
import { AREA_TAB_PATHS, AUTH_PATHS, FRAME_PATHS, MARKETING_PATHS } from './src/config/route-table.js';

// `npm run compile` (scripts/build.mjs) builds into BUILD_OUT_DIR; React Router writes its client and
// server folders beside it, and build/finish-build.ts moves the client folder into place.
const outDir = process.env.BUILD_OUT_DIR;

/**
 * React Router's framework mode (decision 053): no server rendering at run time (`ssr: false`), the
 * public pages and the frame of each signed-in tab and showcase report rendered to HTML at build time
 * (`prerender`), every other route served the SPA fallback (index.html). The lists come from the
 * route table.
 */
const config: Config = {
  appDirectory: 'src',
  ssr: false,
  ...(outDir ? { buildDirectory: `${outDir}.rr` } : {}),
  prerender: [...MARKETING_PATHS, ...AUTH_PATHS, ...AREA_TAB_PATHS, ...FRAME_PATHS],
  // A route's clientLoader in a chunk of its own, so the data it starts is on its way while the
  // route's component downloads (Studio's viewer fetches the report's rows this way).
  future: { v8_splitRouteModules: true },
  async buildEnd({ reactRouterConfig }) {
    if (outDir) await finishBuild({ buildDirectory: reactRouterConfig.buildDirectory, outDir });
  },
};

export default config;
