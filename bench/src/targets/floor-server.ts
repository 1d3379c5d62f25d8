import type { AddressInfo } from 'node:net';
import { deriveKey } from '@dataplatform/server/src/lib/keys.js';
import { verifyPassword } from '@dataplatform/server/src/lib/passwords.js';
import Fastify from 'fastify';
import { createSigner, createVerifier } from 'fast-jwt';
import pg from 'pg';
import { BENCH_SECRET_KEY, requiredEnv } from '../app-config.js';
import { send, startTargetRuntime } from './target-runtime.js';

/**
 * The floors: the least an endpoint can do on this stack. No schemas, no plugins, no logger.
 *
 * - `GET /me`: the least a current-user endpoint with revocable sessions can do: verify the HS256
 *   JWT with the server's library and settings (fast-jwt on the calling thread, the same claims
 *   required, expiry checked against the clock), read the live session, its user and the user's role
 *   names (the same columns as the server's `find_live_session`) with one prepared statement through
 *   a pg Pool of the server's size, and answer the same JSON.
 * - `POST /login`: the least a login with revocable sessions can do: select the user by e-mail,
 *   verify the password with the server's own `verifyPassword` (same argon2id, same concurrency
 *   cap), insert a session row, sign its token. It shows what the machine leaves for a login once
 *   HTTP, PostgreSQL and the load generator take their share, apart from what our stack costs.
 */
interface LiveSessionRow {
  user_id: string;
  email: string;
  full_name: string | null;
  is_active: boolean;
  is_superuser: boolean;
  email_verified_at: Date | null;
  user_created_at: Date;
  role_names: string[];
  last_seen_at: Date;
}

/** Every column the server's `find_live_session` reads: the user's, the role names and the session's last use. */
const FIND_LIVE_SESSION = `
  SELECT u.id AS user_id, u.email, u.full_name, u.is_active, u.is_superuser,
         u.email_verified_at, u.created_at AS user_created_at,
         coalesce((SELECT array_agg(r.name ORDER BY r.name) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                   WHERE ur.user_id = u.id), '{}') AS role_names,
         s.last_seen_at
  FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2
  LIMIT 1`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const pool = new pg.Pool({ connectionString: requiredEnv('BENCH_TARGET_DATABASE_URL'), max: 10 });
const signingKey = deriveKey(BENCH_SECRET_KEY, 'jwt-signing');
const signToken = createSigner({ key: signingKey.export(), algorithm: 'HS256' });
// The server's verifier (sessions.service.ts), option for option.
const verifyToken = createVerifier({
  key: signingKey.export(),
  algorithms: ['HS256'],
  requiredClaims: ['sub', 'sid', 'exp'],
  ignoreExpiration: true,
  ignoreNotBefore: true,
});
const app = Fastify({ logger: false });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
  done(null, new URLSearchParams(body as string));
});

app.get('/me', async (request, reply) => {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return reply.code(401).send({ detail: 'Not authenticated' });
  let payload: Record<string, unknown>;
  try {
    payload = verifyToken(token) as Record<string, unknown>;
  } catch {
    return reply.code(401).send({ detail: 'Could not validate credentials' });
  }
  const { sid, sub, exp } = payload;
  const now = new Date();
  if (typeof exp !== 'number' || exp * 1000 <= now.getTime() || typeof sid !== 'string' || !UUID.test(sid)) {
    return reply.code(401).send({ detail: 'Could not validate credentials' });
  }
  const { rows } = await pool.query<LiveSessionRow>({
    name: 'floor_find_live_session',
    text: FIND_LIVE_SESSION,
    values: [sid, now.toISOString()],
  });
  const row = rows[0];
  if (!row || row.user_id !== sub || !row.is_active) {
    return reply.code(401).send({ detail: 'Could not validate credentials' });
  }
  return {
    id: row.user_id,
    email: row.email,
    full_name: row.full_name,
    is_active: row.is_active,
    is_superuser: row.is_superuser,
    email_verified: row.email_verified_at !== null,
    created_at: row.user_created_at.toISOString(),
    roles: row.role_names,
  };
});

app.post('/login', async (request, reply) => {
  const form = request.body as URLSearchParams;
  const { rows } = await pool.query<{ id: string; hashed_password: string; is_active: boolean }>({
    name: 'floor_find_user_by_email',
    text: 'SELECT id, hashed_password, is_active FROM users WHERE email = $1 LIMIT 1',
    values: [form.get('username')],
  });
  const user = rows[0];
  if (!user?.is_active || !(await verifyPassword(user.hashed_password, form.get('password') ?? ''))) {
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
