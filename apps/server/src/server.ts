import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { seedFirstSuperuser } from './seed.js';
import { shutDownGracefully } from './shutdown.js';

/**
 * The only file that listens: config, database, migrations, seed, then serve until SIGTERM or
 * SIGINT, which drain and close the server (src/shutdown.ts) and exit 0.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase({
    ...config,
    onConnectionLost: (error) => process.stderr.write(`database connection lost: ${error.message}\n`),
  });
  await database.migrate();
  const app = await buildApp(config, { database });
  await seedFirstSuperuser(database.db, config, app.log);

  // A second signal changes nothing: a terminal's Ctrl-C reaches both npm and the server, and npm
  // passes it on, so one keypress often arrives twice. SHUTDOWN_TIMEOUT_MS is the way out of a hang.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, ...config.shutdown }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error({ timeoutMs: config.shutdown.timeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdown.timeoutMs);
    force.unref();
    try {
      await shutDownGracefully(app, database, { drainMs: config.shutdown.drainMs });
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port, backlog: config.listenBacklog });
  app.log.info(
    { database: database.driver, environment: config.environment },
    `serving on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
