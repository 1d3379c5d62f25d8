import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { systemClock } from './lib/clock.js';
import { seedFirstSuperuser } from './seed.js';
import { DEMO_PASSWORD, seedDemo } from './seed-demo.js';

/**
 * `npm run db:seed`: migrates, creates the first superuser as the server would, then adds the demo
 * data (seed-demo.ts). Never in production. With the embedded database, stop the server first: a
 * PGlite data folder has one process at a time.
 */
let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
if (config.environment === 'production') {
  process.stderr.write('db:seed refuses to run with ENVIRONMENT=production: demo data never goes there.\n');
  process.exit(1);
}

const database = await openDatabase(config);
try {
  await database.migrate();
  // The app is built for its services only: it never listens, and its background workers never start.
  const app = await buildApp(config, { database });
  try {
    await seedFirstSuperuser(database.db, config, app.log);
    const summary = await seedDemo({ db: database.db, services: app.services, config, clock: systemClock });
    const added = Object.entries(summary)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ');
    process.stdout.write(
      `demo data seeded (${database.driver}); added: ${added}\n` +
        `demo accounts (e.g. maya.patel@example.com) sign in with the password "${DEMO_PASSWORD}"\n`,
    );
  } finally {
    await app.close();
  }
} finally {
  await database.close();
}
