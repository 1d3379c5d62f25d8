import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';

/** `npm run db:migrate`: applies committed migrations (the server also does this at start). */
const config = loadConfig();
const database = await openDatabase(config);
try {
  await database.migrate();
  process.stdout.write(`migrations applied (${database.driver})\n`);
} finally {
  await database.close();
}
