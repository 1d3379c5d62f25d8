import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopperFor, waitUntilReady } from './child-process.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const webDistDir = path.join(repoRoot, 'apps/web/dist');
const serverEntry = path.join(repoRoot, 'apps/server/dist/server.js');

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface AppServer {
  baseUrl: string;
  superuserEmail: string;
  superuserPassword: string;
  /** FILES_DIR of the server: files a `download_…` role grants. */
  filesDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the production build the way `npm start` serves it (node apps/server/dist/server.js) with
 * its own empty data folder on a free loopback port; mail goes to `smtpPort` when given, and the
 * agent's questions to `agentBaseUrl`.
 */
export async function startAppServer(options: { smtpPort?: number; agentBaseUrl?: string } = {}): Promise<AppServer> {
  for (const built of [serverEntry, path.join(webDistDir, 'index.html')]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` at the repository root first`);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dp-app-'));
  const filesDir = path.join(dataDir, 'files');
  mkdirSync(filesDir, { recursive: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const superuserEmail = 'admin@example.com';
  const superuserPassword = randomBytes(12).toString('base64url');
  const smtp: Record<string, string> =
    options.smtpPort === undefined
      ? { SMTP_HOST: '' }
      : { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(options.smtpPort), SMTP_TLS: 'false', SMTP_SSL: 'false' };

  const server = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ENVIRONMENT: 'local',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      FILES_DIR: filesDir,
      DATABASE_URL: '',
      FRONTEND_HOST: baseUrl,
      FIRST_SUPERUSER: superuserEmail,
      FIRST_SUPERUSER_PASSWORD: superuserPassword,
      LOG_LEVEL: 'warn',
      // The specs' API logins each name a client address of their own (X-Forwarded-For), as many
      // people behind a proxy would: the per-address login limit is for them, not for the suite.
      TRUST_PROXY: 'true',
      // Extracts up to 64 MB, as the Studio issue asks of this product: the Sources spec's too-large file stays small.
      STUDIO_EXTRACT_MAX_BYTES: String(64_000_000),
      // The agent asks the specs' scripted model server (support/scripted-model.ts), when one is given.
      ...(options.agentBaseUrl === undefined
        ? { AGENT_BASE_URL: '' }
        : { AGENT_BASE_URL: options.agentBaseUrl, AGENT_MODEL: 'scripted', AGENT_API_KEY: 'e2e' }),
      ...smtp,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = stopperFor(server, 'SIGTERM', () => rmSync(dataDir, { recursive: true, force: true }));
  await waitUntilReady(
    server,
    stop,
    async () => {
      try {
        return (await fetch(`${baseUrl}/readyz`)).ok;
      } catch {
        return false; // Not listening yet.
      }
    },
    { what: `the server at ${baseUrl}`, timeoutMs: 90_000, intervalMs: 200 },
  );
  return { baseUrl, superuserEmail, superuserPassword, filesDir, stop };
}
