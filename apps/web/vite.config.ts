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
  // The chart worker (features/studio/chart) is a module worker: its script is split and loaded as
  // ES modules, as the page's are.
  worker: { format: 'es' },
  ssr: { noExternal: ['@dataplatform/contract'], resolve: { conditions: ['source'], externalConditions: ['source'] } },
  server: { proxy: { '/api': 'http://localhost:8000' } },
});
