import { defineConfig } from 'vitest/config';
import { workspaceResolution } from './vitest.config.js';

// The fault suite needs a PostgreSQL server it can cut connections on: the local one by default.
process.env.TEST_DATABASE_URL ??= 'postgresql://dp_test:dp_test@127.0.0.1:5432/postgres';

/**
 * `npm run test:faults`: the server under faults (database connections killed and refused, SMTP
 * down, hostile requests) against a PostgreSQL server; `npm run test:fuzz`: requests generated from
 * the OpenAPI document. One file at a time: the cases measure recovery times and must not compete
 * with each other for the two cores.
 */
export default defineConfig({
  ...workspaceResolution,
  test: {
    include: ['test/faults/**/*.fault.ts', 'test/fuzz/**/*.fuzz.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
