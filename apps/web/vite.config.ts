import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { commonPasswordsPlugin } from './build/common-passwords-plugin.js';

export default defineConfig({
  plugins: [reactRouter(), commonPasswordsPlugin()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  define: {
    // The public address of the site, for the canonical links of the prerendered pages.
    __SITE_URL__: JSON.stringify((process.env.FRONTEND_HOST ?? 'http://localhost:8000').replace(/\/+$/, '')),
  },
  build: {
    rollupOptions: {
      output: {
        // MUI's and Emotion's modules that five or more chunks share go in one chunk instead of a
        // chunk per set of sharers: a signed-in tab's first load came in 46-71 files, half of
        // them under 1 KB; now in 22-34, and smaller on most tabs (decision 039).
        codeSplitting: {
          groups: [
            {
              name: 'mui-shared',
              test: /node_modules[\\/](@mui|@emotion|react-transition-group|@babel|clsx|prop-types|react-is|stylis)[\\/]/,
              minShareCount: 5,
            },
          ],
        },
      },
    },
  },
  ssr: { noExternal: ['@dataplatform/contract'], resolve: { conditions: ['source'], externalConditions: ['source'] } },
  server: { proxy: { '/api': 'http://localhost:8000' } },
});
