/**
 * `npm run agent:eval`: asks the configured model (AGENT_BASE_URL, AGENT_MODEL, AGENT_API_KEY) every
 * question of the agent's evaluation set over the demo source, and prints, per question, whether its
 * result equals the hand-written SQL's (execution accuracy, as BIRD's EX), the repairs and tokens it
 * took, then the accuracy by level. The server is built in this process on a throwaway embedded
 * database and demo data of STUDIO_DEMO_ROWS rows (100 000 unless set) in a temporary folder, so it
 * runs beside `npm start` without touching its data. src/modules/studio/agent/eval/run-evaluation.test.ts
 * runs the same harness against a scripted model.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig, uniformRateLimits } from '../src/config.js';
import { createPglite, wrapPglite } from '../src/db/client.js';
import { seedFirstSuperuser } from '../src/seed.js';
import { EVAL_QUESTIONS } from '../src/modules/studio/agent/eval/questions.js';
import { runEvaluation, type EvalResult } from '../src/modules/studio/agent/eval/run-evaluation.js';

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  if (!process.env.AGENT_BASE_URL) {
    print('No model is configured: set AGENT_BASE_URL (and AGENT_MODEL, AGENT_API_KEY if the server needs one).');
    print('For example: AGENT_BASE_URL=http://127.0.0.1:11434/v1 AGENT_MODEL=llama3.1 npm run agent:eval');
    return 2;
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'agent-eval-'));
  const password = randomBytes(12).toString('base64url');
  const config = loadConfig({
    ...process.env,
    ENVIRONMENT: 'local',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    STUDIO_DEMO_ROWS: process.env.STUDIO_DEMO_ROWS ?? '100000',
    AGENT_TOKENS_PER_TENANT_PER_DAY: '0',
    FIRST_SUPERUSER: 'eval@example.com',
    FIRST_SUPERUSER_PASSWORD: password,
    WEB_DIST_DIR: '/nonexistent-web-dist',
    SMTP_HOST: '',
    DATABASE_URL: '',
    REDIS_URL: '',
  });
  // One person asks every question in a row: the per-account limit is for people, not for this run.
  config.rateLimits = uniformRateLimits({ max: 100_000, windowMs: 60_000 });
  const database = wrapPglite(await createPglite());
  await database.migrate();
  const app = await buildApp(config, { database });
  try {
    await seedFirstSuperuser(database.db, config, app.log);
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/login/access-token',
      payload: `username=eval%40example.com&password=${encodeURIComponent(password)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const token = login.json<{ access_token: string }>().access_token;
    print(`model ${config.agent.model} at ${config.agent.baseUrl}, ${EVAL_QUESTIONS.length} questions`);
    print('id                          level   ok  answer         repairs  tokens     ms');
    const { results, accuracy } = await runEvaluation({
      app,
      headers: { authorization: `Bearer ${token}` },
      questions: EVAL_QUESTIONS,
      onResult: (result) =>
        print(
          `${result.id.padEnd(28)}${result.level.padEnd(8)}${(result.correct ? 'yes' : 'no').padEnd(4)}${result.outcome.padEnd(15)}${String(result.repairs).padStart(7)}${String(result.tokens).padStart(8)}${String(result.ms).padStart(7)}`,
        ),
    });
    const share = (list: EvalResult[]) =>
      `${list.filter((result) => result.correct).length}/${list.length} (${((100 * list.filter((result) => result.correct).length) / Math.max(1, list.length)).toFixed(0)} %)`;
    for (const level of ['easy', 'medium', 'hard'] as const) {
      print(`${level}: ${share(results.filter((result) => result.level === level))}`);
    }
    const tokens = results.reduce((sum, result) => sum + result.tokens, 0);
    const repairs = results.reduce((sum, result) => sum + result.repairs, 0);
    print(
      `execution accuracy ${(accuracy * 100).toFixed(1)} %; ${repairs} repairs; ${Math.round(tokens / results.length)} tokens a question`,
    );
    return 0;
  } finally {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
