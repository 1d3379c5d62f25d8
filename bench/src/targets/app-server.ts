import type { AddressInfo } from 'node:net';
import { buildApp } from '@dataplatform/server/src/app.js';
import { openPostgres } from '@dataplatform/server/src/db/client.js';
import { benchAppConfig, requiredEnv } from '../app-config.js';
import { send, startTargetRuntime } from './target-runtime.js';

/** Our real server as server.ts builds it (pool of 10, same plugins), minus migrations and seeding. */
const databaseUrl = requiredEnv('BENCH_TARGET_DATABASE_URL');
const database = openPostgres(databaseUrl, {
  onConnectionLost: (error) => process.stderr.write(`database connection lost: ${error.message}\n`),
});
// More settings for one scenario, as JSON (the Studio section: DATA_DIR, STUDIO_*, METRICS_TOKEN).
const extraEnv = JSON.parse(process.env.BENCH_TARGET_ENV ?? '{}') as Record<string, string>;
const config = benchAppConfig(databaseUrl, extraEnv);
const app = await buildApp(config, { database });
startTargetRuntime({
  close: async () => {
    await app.close();
    await database.close();
  },
});
await app.listen({ host: '127.0.0.1', port: 0, backlog: config.listenBacklog });
await send({ type: 'ready', port: (app.server.address() as AddressInfo).port });
