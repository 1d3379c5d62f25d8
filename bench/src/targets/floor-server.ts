import type { AddressInfo } from 'node:net';
import { deriveKey } from '@dataplatform/server/src/lib/keys.js';
import Fastify from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';
import { BENCH_SECRET_KEY, requiredEnv } from '../app-config.js';
import { send, startTargetRuntime } from './target-runtime.js';

/**
 * The floor: the least a "current user" endpoint can do on this stack. Verify an HS256 JWT with jose,
 * select the user by primary key through a pg Pool of the same size as ours, answer JSON. No session
 * check, no schemas, no plugins, no logger.
 */
interface UserRow {
  id: string;
  email: string;
  full_name: string | null;
  is_active: boolean;
  is_superuser: boolean;
}

const pool = new pg.Pool({ connectionString: requiredEnv('BENCH_TARGET_DATABASE_URL'), max: 10 });
const signingKey = deriveKey(BENCH_SECRET_KEY, 'jwt-signing');
const app = Fastify({ logger: false });

app.get('/me', async (request, reply) => {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return reply.code(401).send({ detail: 'Not authenticated' });
  let userId: string | undefined;
  try {
    ({
      payload: { sub: userId },
    } = await jwtVerify(token, signingKey, { algorithms: ['HS256'] }));
  } catch {
    return reply.code(401).send({ detail: 'Could not validate credentials' });
  }
  const { rows } = await pool.query<UserRow>(
    'SELECT id, email, full_name, is_active, is_superuser FROM users WHERE id = $1',
    [userId],
  );
  if (!rows[0]) return reply.code(404).send({ detail: 'User not found' });
  return rows[0];
});

startTargetRuntime({
  close: async () => {
    await app.close();
    await pool.end();
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
await send({ type: 'ready', port: (app.server.address() as AddressInfo).port });
