import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { commonPasswordsPlugin } from './build/common-passwords-plugin.js';

export default defineConfig({
  plugins: [react(), commonPasswordsPlugin()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  build: {
    // The manifest tells the prerender step which chunks each page needs (for modulepreload links).
    manifest: true,
    // index.html is the SPA shell; prerendered.ts is the script of the prerendered marketing pages,
    // which loads the app only when needed (docs/decisions/024-lean-marketing-pages.md).
    rollupOptions: {
      input: { index: 'index.html', prerendered: 'src/prerendered.ts' },
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
