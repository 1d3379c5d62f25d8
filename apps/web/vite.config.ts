import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { commonPasswordsPlugin } from './build/common-passwords-plugin.js';
import { showcaseReportsPlugin } from './build/showcase-reports-plugin.js';

export default defineConfig({
  plugins: [reactRouter(), commonPasswordsPlugin(), showcaseReportsPlugin()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  define: {
    // The public address of the site, for the canonical links of the prerendered pages.
    __SITE_URL__: JSON.stringify((process.env.FRONTEND_HOST ?? 'http://localhost:8000').replace(/\/+$/, '')),
  },
  // The chart worker (features/studio/chart) is a module worker: its script is split and loaded as
  // ES modules, as the page's are.
  worker: { format: 'es' },
  build: {
    rolldownOptions: {
      output: {
        // MUI's own helpers (@mui/utils, @mui/system, material's utils), which every page that runs
        // the app shares, in one chunk rather than in dozens of chunks of 80–600 bytes each: every
        // chunk costs the page its own request, compression frame and import lines. 4–6 KB less
        // JavaScript on each page that runs the app (decision 056).
        codeSplitting: {
          groups: [
            {
              name: 'mui-utils',
              test: /node_modules[\\/]@mui[\\/](utils|system|material[\\/](utils|internal))[\\/]/,
              minShareCount: 3,
            },
          ],
        },
      },
    },
  },
  ssr: { noExternal: ['@dataplatform/contract'], resolve: { conditions: ['source'], externalConditions: ['source'] } },
  server: { proxy: { '/api': 'http://localhost:8000' } },
});
