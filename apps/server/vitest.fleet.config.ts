import { defineConfig } from 'vitest/config';

/** Resolve workspace packages to their TypeScript sources (the `source` export condition). */
const conditions = ['source', 'module', 'node', 'development|production'];

// The fleet runs on a PostgreSQL server: the local one by default.
process.env.TEST_DATABASE_URL ??= 'postgresql://dp_test:dp_test@127.0.0.1:5432/postgres';

/**
 * `npm run test:fleet`: the built server as several processes behind nginx (deploy/nginx), each file
 * on a fresh database. One file at a time: they start real processes on two cores, and the rolling
 * restart measures latencies.
 */
export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    include: ['test/fleet/**/*.fleet.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
