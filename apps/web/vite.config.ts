import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  // The manifest tells the prerender step which chunks each page needs (for modulepreload links).
  build: { manifest: true },
  ssr: { noExternal: ['@dataplatform/contract'], resolve: { conditions: ['source'], externalConditions: ['source'] } },
  server: { proxy: { '/api': 'http://localhost:8000' } },
});
