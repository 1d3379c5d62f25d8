import type { AddressInfo } from 'node:net';
import { deriveKey } from '@dataplatform/server/src/lib/keys.js';
import { verifyPassword } from '@dataplatform/server/src/lib/passwords.js';
import Fastify from 'fastify';
import { createSigner } from 'fast-jwt';
import { jwtVerify } from 'jose';
import pg from 'pg';
import { BENCH_SECRET_KEY, requiredEnv } from '../app-config.js';
import { send, startTargetRuntime } from './target-runtime.js';

/**
 * The floors: the least an endpoint can do on this stack. No schemas, no plugins, no logger.
 *
 * - `GET /me`: verify an HS256 JWT with jose, select the user by primary key through a pg Pool of the
 *   same size as ours, answer JSON. No session check.
 * - `POST /login`: the least a login with revocable sessions can do: select the user by e-mail,
 *   verify the password with the server's own `verifyPassword` (same argon2id, same concurrency
 *   cap), insert a session row, sign its token. It shows what the machine leaves for a login once
 *   HTTP, PostgreSQL and the load generator take their share, apart from what our stack costs.
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
const signToken = createSigner({ key: signingKey.export(), algorithm: 'HS256' });
const app = Fastify({ logger: false });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
  done(null, new URLSearchParams(body as string));
});

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

app.post('/login', async (request, reply) => {
  const form = request.body as URLSearchParams;
  const { rows } = await pool.query<{ id: string; hashed_password: string }>({
    name: 'floor_find_user_by_email',
    text: 'SELECT id, hashed_password FROM users WHERE email = $1',
    values: [form.get('username')],
  });
  const user = rows[0];
  if (!user || !(await verifyPassword(user.hashed_password, form.get('password') ?? ''))) {
    return reply.code(400).send({ detail: 'Incorrect email or password' });
  }
  const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
  const session = await pool.query<{ id: string }>({
    name: 'floor_insert_session',
    text: 'INSERT INTO sessions (user_id, expires_at) VALUES ($1, $2) RETURNING id',
    values: [user.id, expiresAt],
  });
  const accessToken = signToken({
    sid: session.rows[0]!.id,
    sub: user.id,
    exp: Math.floor(expiresAt.getTime() / 1000),
  });
  return { access_token: accessToken, token_type: 'bearer' };
});

startTargetRuntime({
  close: async () => {
    await app.close();
    await pool.end();
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
await send({ type: 'ready', port: (app.server.address() as AddressInfo).port });
