import { randomBytes } from 'node:crypto';
import { buildApp } from '@dataplatform/server/src/app.js';
import { openPostgres } from '@dataplatform/server/src/db/client.js';
import { hashPassword } from '@dataplatform/server/src/lib/passwords.js';
import { insertUser } from '@dataplatform/server/src/modules/users/users.repository.js';
import pg from 'pg';
import { benchAppConfig } from './app-config.js';

export interface BenchUser {
  id: string;
  email: string;
  password: string;
  /** A real session's bearer token, from a real login. */
  token: string;
}

export interface BenchDatabase {
  url: string;
  serverVersion: string;
  drop(): Promise<void>;
}

/**
 * A new, empty database on the server, named `dp_bench_<random><suffix>`, with `drop()`, which
 * removes it (idempotent: both the run's own cleanup and a Ctrl-C handler may call it) and ends the
 * admin connection kept open for it.
 */
export async function createScratchDatabase(adminUrl: string, suffix = ''): Promise<BenchDatabase> {
  const name = `dp_bench_${randomBytes(6).toString('hex')}${suffix}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  let dropping: Promise<void> | undefined;
  const drop = () =>
    (dropping ??= admin
      .query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      .then(() => undefined)
      .finally(() => admin.end()));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    const { rows } = await admin.query<{ server_version: string }>('SHOW server_version');
    return { url: url.toString(), serverVersion: rows[0]?.server_version ?? 'unknown', drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** A fresh database on the server, migrated with the server's own migrations. */
export async function createBenchDatabase(adminUrl: string, suffix = ''): Promise<BenchDatabase> {
  const scratch = await createScratchDatabase(adminUrl, suffix);
  try {
    const database = openPostgres(scratch.url, { poolSize: 2 });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    return scratch;
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}

/** Inserts one active user and logs it in through the real app, as a browser would. */
export async function createBenchUser(databaseUrl: string, options: { superuser?: boolean } = {}): Promise<BenchUser> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'bench-password-long-enough';
  const database = openPostgres(databaseUrl, { poolSize: 2 });
  const app = await buildApp(benchAppConfig(databaseUrl), { database });
  try {
    const row = await insertUser(database.db, {
      email,
      hashedPassword: await hashPassword(password),
      fullName: 'Bench User',
      isActive: true,
      isSuperuser: options.superuser ?? false,
      emailVerifiedAt: new Date(),
    });
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/login/access-token',
      payload: new URLSearchParams({ username: email, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (response.statusCode !== 200) throw new Error(`bench login failed: ${response.statusCode} ${response.body}`);
    return { id: row.id, email, password, token: response.json<{ access_token: string }>().access_token };
  } finally {
    await app.close();
    await database.close();
  }
}
