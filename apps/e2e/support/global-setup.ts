import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAppServer } from './app-server.js';
import { startMailbox } from './mailbox-server.js';

/**
 * Starts what a person would meet: the production build served as `npm start` serves it, mailing
 * through an SMTP server on loopback whose mails the specs read from a folder.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'dp-e2e-'));
  const mailbox = await startMailbox(path.join(workDir, 'mailbox'));
  const app = await startAppServer({ smtpPort: mailbox.port });

  // Read by the specs' fixtures (Playwright passes globalSetup's environment to its workers).
  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_MAILBOX_DIR = mailbox.dir;
  process.env.E2E_SUPERUSER_EMAIL = app.superuserEmail;
  process.env.E2E_SUPERUSER_PASSWORD = app.superuserPassword;
  process.env.E2E_FILES_DIR = app.filesDir;

  return async () => {
    await app.stop();
    await mailbox.close();
    rmSync(workDir, { recursive: true, force: true });
  };
}
