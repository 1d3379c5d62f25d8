import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { commonPasswordsPlugin } from './build/common-passwords-plugin.js';
import { showcaseReportsPlugin } from './build/showcase-reports-plugin.js';

export default defineConfig({
  plugins: [react(), commonPasswordsPlugin(), showcaseReportsPlugin()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    // jsdom and user-event are slow on a busy shared machine; a slow moment is not a failure.
    testTimeout: 20_000,
  },
});
