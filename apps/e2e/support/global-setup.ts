import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAppServer, type AppServer } from './app-server.js';
import { startMailbox } from './mailbox-server.js';
import { startScriptedModel } from './scripted-model.js';

/**
 * Starts what a person would meet: the production build served as `npm start` serves it, mailing
 * through an SMTP server on loopback whose mails the specs read from a folder, the agent asking a
 * scripted model server the specs script over HTTP.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'dp-e2e-'));
  const mailbox = await startMailbox(path.join(workDir, 'mailbox'));
  const model = await startScriptedModel();
  const app = await startAppServer({ smtpPort: mailbox.port, agentBaseUrl: model.url });
  await buildDemoData(app);

  // Read by the specs' fixtures (Playwright passes globalSetup's environment to its workers).
  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_MAILBOX_DIR = mailbox.dir;
  process.env.E2E_SUPERUSER_EMAIL = app.superuserEmail;
  process.env.E2E_SUPERUSER_PASSWORD = app.superuserPassword;
  process.env.E2E_FILES_DIR = app.filesDir;
  process.env.E2E_AGENT_URL = model.url;

  return async () => {
    await app.stop();
    await mailbox.close();
    await model.close();
    rmSync(workDir, { recursive: true, force: true });
  };
}

/** How long the demo data may take to build on a slow host before the suite gives up. */
const DEMO_BUILD_TIMEOUT_MS = 10 * 60_000;

/**
 * Has the server build the demo data set the built-in reports read (STUDIO_DEMO_ROWS rates, built
 * on a server's first run of such a report) before any spec starts. On a busy 2-core host the
 * build can outlast a spec's wait for its first figure, and which spec paid for it depended on the
 * order the specs ran in.
 */
async function buildDemoData(app: AppServer): Promise<void> {
  const login = await fetch(`${app.baseUrl}/api/v1/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: app.superuserEmail, password: app.superuserPassword }),
    // An address of its own, as the specs' logins have (TRUST_PROXY, app-server.ts).
    headers: { 'x-forwarded-for': '192.0.2.250' },
  });
  if (!login.ok) throw new Error(`global setup: the superuser's login answered ${login.status}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const report = (await (await fetch(`${app.baseUrl}/api/v1/studio/reports/payer`, { headers })).json()) as {
    id: string;
    blocks: { id: string; kind: string }[];
  };
  const kpi = report.blocks.find((block) => block.kind === 'kpi');
  if (!kpi) throw new Error('global setup: the payer report has no KPI block to run');
  const run = await fetch(`${app.baseUrl}/api/v1/studio/reports/${report.id}/run`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ block: kpi.id, params: {} }),
    signal: AbortSignal.timeout(DEMO_BUILD_TIMEOUT_MS),
  });
  if (!run.ok) throw new Error(`global setup: the first report run answered ${run.status}: ${await run.text()}`);
}
