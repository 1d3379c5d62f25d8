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
    rollupOptions: { input: { index: 'index.html', prerendered: 'src/prerendered.ts' } },
  },
  ssr: { noExternal: ['@dataplatform/contract'], resolve: { conditions: ['source'], externalConditions: ['source'] } },
  server: { proxy: { '/api': 'http://localhost:8000' } },
});
