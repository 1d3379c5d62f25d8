import { configDefaults, defineConfig } from 'vitest/config';

/** Resolve workspace packages to their TypeScript sources (the `source` export condition). */
const conditions = ['source', 'module', 'node', 'development|production'];
/**
 * Vitest hands the SSR conditions to Node as `--conditions`, where `module` (a bundler's condition)
 * makes `require('@opentelemetry/api')` inside prom-client load an ESM build Node cannot run.
 */
const nodeConditions = conditions.filter((condition) => condition !== 'module');

/** How both suites (this one and vitest.faults.config.ts) resolve modules. */
export const workspaceResolution = {
  resolve: { conditions },
  ssr: { resolve: { conditions: nodeConditions, externalConditions: ['source'] } },
};

export default defineConfig({
  ...workspaceResolution,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // `*.postgres.test.ts`: what only a PostgreSQL server can show, run by the suite against one
    // (TEST_DATABASE_URL, as .ci/run does); on embedded PGlite they are not collected at all.
    exclude: process.env.TEST_DATABASE_URL
      ? configDefaults.exclude
      : [...configDefaults.exclude, '**/*.postgres.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
