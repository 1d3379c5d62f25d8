import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { inject } from 'vitest';
import { createPglite } from '../src/db/client.js';

/** A tenant's own PostgreSQL database that the server reaches over the wire protocol. */
export interface TenantDatabase {
  /** Connection URL with the right password. */
  url: string;
  /** The same URL with a wrong password. */
  wrongPasswordUrl: string;
  /** Runs SQL in the database as the test (not through the server). */
  exec(sql: string): Promise<void>;
  /** Connections the server side currently holds open to this database. */
  connectionCount(): Promise<number>;
  close(): Promise<void>;
}

/** A loopback port nobody listens on: connecting to it is refused at once. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

/**
 * `count` databases: with TEST_DATABASE_URL, new databases on that server (owned by its role);
 * otherwise PGlite instances served on loopback with pglite-socket. Wherever the server would not
 * check passwords itself (PGlite; a PostgreSQL server trusting loopback), a front that does check
 * them stands before it, so a wrong password is refused as a real server refuses it.
 */
export async function startTenantDatabases(count: number): Promise<TenantDatabase[]> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const started: TenantDatabase[] = [];
  for (let index = 0; index < count; index += 1) {
    started.push(serverUrl ? await createServerDatabase(serverUrl) : await startPgliteDatabase());
  }
  return started;
}

/** Whether the server refuses a wrong password (pg_hba `scram-sha-256`/`md5`, not `trust`). */
async function serverChecksPasswords(serverUrl: string): Promise<boolean> {
  const client = new pg.Client({
    connectionString: withPassword(serverUrl, `wrong-${randomBytes(6).toString('hex')}`),
  });
  try {
    await client.connect();
    await client.end();
    return false;
  } catch {
    return true;
  }
}

async function createServerDatabase(serverUrl: string): Promise<TenantDatabase> {
  const name = `dp_tenant_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const directUrl = url.toString();
  let front: Awaited<ReturnType<typeof startPasswordFront>> | undefined;
  if (!(await serverChecksPasswords(serverUrl))) {
    front = await startPasswordFront(url.hostname, Number(url.port || 5432), decodeURIComponent(url.password));
    url.hostname = '127.0.0.1';
    url.port = String(front.port);
  }
  const tenantUrl = url.toString();
  return {
    url: tenantUrl,
    wrongPasswordUrl: withPassword(tenantUrl, `wrong-${randomBytes(4).toString('hex')}`),
    async exec(sql) {
      const client = new pg.Client({ connectionString: directUrl });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    },
    async connectionCount() {
      const result = await admin.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      return result.rows[0]?.count ?? 0;
    },
    async close() {
      await front?.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** An empty database: the run's migrated dump loads far faster than a new initdb, then is emptied. */
async function startPgliteDatabase(): Promise<TenantDatabase> {
  const db = await createPglite({ loadDataDir: new Blob([readFileSync(inject('pgliteDumpPath'))]) });
  await db.exec('DROP SCHEMA IF EXISTS drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  const socketServer = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 100 });
  await socketServer.start();
  const upstreamPort = Number(socketServer.getServerConn().split(':').pop());
  const password = randomBytes(12).toString('base64url');
  const front = await startPasswordFront('127.0.0.1', upstreamPort, password);
  const url = `postgresql://postgres:${password}@127.0.0.1:${front.port}/postgres`;
  return {
    url,
    wrongPasswordUrl: withPassword(url, `wrong-${randomBytes(4).toString('hex')}`),
    async exec(sql) {
      await db.exec(sql);
    },
    async connectionCount() {
      return front.openConnections();
    },
    async close() {
      await front.close();
      await socketServer.stop();
      await db.close();
    },
  };
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

function authenticationCleartextPassword(): Buffer {
  const message = Buffer.alloc(9);
  message.write('R', 0);
  message.writeInt32BE(8, 1);
  message.writeInt32BE(3, 5);
  return message;
}

/** An ErrorResponse as PostgreSQL sends it for a failed password check. */
function passwordFailed(user: string): Buffer {
  const fields = Buffer.concat(
    [
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '28P01'],
      ['M', `password authentication failed for user "${user}"`],
    ]
      .map(([code, text]) => Buffer.from(`${code}${text}\0`, 'utf8'))
      .concat(Buffer.from('\0')),
  );
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

function startupParameter(startup: Buffer, name: string): string | undefined {
  const parts = startup.subarray(8).toString('utf8').split('\0');
  const index = parts.indexOf(name);
  return index >= 0 && index % 2 === 0 ? parts[index + 1] : undefined;
}

/**
 * For a database that accepts any password: asks for one the way a PostgreSQL server does
 * (cleartext authentication), refuses a wrong one with SQLSTATE 28P01, and after a right one
 * replays the startup message upstream and pipes the connection through.
 */
async function startPasswordFront(upstreamHost: string, upstreamPort: number, password: string) {
  const sockets = new Set<net.Socket>();
  let open = 0;

  const server = net.createServer((client) => {
    sockets.add(client);
    let buffered = Buffer.alloc(0);
    let startup: Buffer | undefined;
    let piped = false;

    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!startup) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) return;
        const code = buffered.readInt32BE(4);
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          client.write('N');
          if (buffered.length > 0) onData(Buffer.alloc(0));
          return;
        }
        startup = Buffer.from(message);
        client.write(authenticationCleartextPassword());
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1);
      if (buffered.length < length + 1) return;
      const given = buffered
        .subarray(5, length + 1)
        .toString('utf8')
        .replace(/\0$/, '');
      const rest = buffered.subarray(length + 1);
      client.off('data', onData);
      if (buffered[0] !== 'p'.charCodeAt(0) || given !== password) {
        client.end(passwordFailed(startupParameter(startup, 'user') ?? ''));
        return;
      }
      const upstream = net.connect(upstreamPort, upstreamHost);
      sockets.add(upstream);
      piped = true;
      open += 1;
      upstream.write(startup);
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream);
      upstream.pipe(client);
      const closeBoth = () => {
        client.destroy();
        upstream.destroy();
      };
      upstream.on('error', closeBoth);
      upstream.on('close', () => {
        sockets.delete(upstream);
        closeBoth();
      });
    };

    client.on('data', onData);
    client.on('error', () => client.destroy());
    client.on('close', () => {
      sockets.delete(client);
      if (piped) open -= 1;
      piped = false;
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Authenticated client connections still open. */
    openConnections: () => open,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
