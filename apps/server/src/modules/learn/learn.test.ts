import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  addBlockToReport,
  parseReportDefinition,
  PERMISSIONS,
  type AgentMessage,
  type Lesson,
  type LessonCheckResult,
  type Lessons,
  type ReportPublic,
  type TenantPublic,
} from '@dataplatform/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../test/authz-fixtures.js';
import { uploadCsvOk } from '../../../test/extract-fixtures.js';
import { bearer, createUser, generousRateLimits, login, useTestContext, type TestUser } from '../../../test/harness.js';
import { startScriptedModel } from '../../../test/scripted-model.js';
import { createTenant, tenantHeaders } from '../../../test/tenant-fixtures.js';
import { LESSONS_DIR } from './lesson-files.js';
import { LESSON_SLUGS_IN_ORDER } from '../../../test/learn-fixtures.js';

const CHECKS_PER_MINUTE = 200;
const model = await startScriptedModel();
const { ctx, admin } = useTestContext({
  env: { AGENT_BASE_URL: model.url, AGENT_MODEL: 'scripted-model', AGENT_TOKENS_PER_TENANT_PER_DAY: '100000' },
  config: {
    rateLimits: { ...generousRateLimits, learnChecksPerAccount: { max: CHECKS_PER_MINUTE, windowMs: 60_000 } },
  },
});

/** A new member of a fresh tenant, holding what the lessons ask for. */
let learner: TestUser;
let tenant: TenantPublic;
/** Someone who does every lesson's work in another tenant first: it must never count in `tenant`. */
let other: TestUser;
let otherTenant: TenantPublic;
/** Signed in, but a member of neither tenant. */
let stranger: TestUser;

const sample = () => readFile(path.join(LESSONS_DIR, 'samples', 'seattle-weather.csv'), 'utf8');

function api(
  user: TestUser,
  tenantId: string | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  return ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: tenantHeaders(user, tenantId),
    ...(payload === undefined ? {} : { payload }),
  });
}

async function lessonOf(user: TestUser, tenantId: string, slug: string): Promise<Lesson> {
  const response = await api(user, tenantId, 'GET', `/learn/lessons/${slug}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Lesson>();
}

/** Each step's outcome of a check now, by id. */
async function check(
  user: TestUser,
  tenantId: string,
  slug: string,
): Promise<Record<string, { done: boolean; detail: string }>> {
  const response = await api(user, tenantId, 'POST', `/learn/lessons/${slug}/check`);
  expect(response.statusCode, response.body).toBe(200);
  return Object.fromEntries(response.json<LessonCheckResult>().steps.map(({ id, ...rest }) => [id, rest]));
}

/** The ```yaml snippets of a step, in order, as the lesson shows them. */
function snippets(lesson: Lesson, stepId: string): string[] {
  const step = lesson.steps.find((candidate) => candidate.id === stepId);
  if (!step) throw new Error(`no step ${stepId} in ${lesson.slug}`);
  return [...step.markdown.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

const upload = (user: TestUser, tenantId: string, name: string, csv: string) =>
  uploadCsvOk(ctx, user, tenantId, name, csv);

async function createReport(
  user: TestUser,
  tenantId: string,
  definition: string,
  extra: object = {},
): Promise<ReportPublic> {
  const response = await api(user, tenantId, 'POST', '/studio/reports', { definition, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ReportPublic>();
}

/** Adds a block snippet (`  - id: …`) at the end of the report's blocks and saves. */
async function appendBlock(
  user: TestUser,
  tenantId: string,
  report: ReportPublic,
  block: string,
): Promise<ReportPublic> {
  const current = await api(user, tenantId, 'GET', `/studio/reports/${report.id}`);
  const { definition, version } = current.json<ReportPublic & { version: number }>();
  const response = await api(user, tenantId, 'PUT', `/studio/reports/${report.id}`, {
    definition: `${definition.trimEnd()}\n${block}`,
    version,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ReportPublic>();
}

/** An agent answer with a block, added to a new report of the tenant as a version drafted with it. */
async function addAgentBlock(user: TestUser, tenantId: string) {
  const conversation = await api(user, tenantId, 'POST', '/agent/conversations', {});
  expect(conversation.statusCode, conversation.body).toBe(201);
  model.script({
    content: {
      kind: 'plan',
      title: 'Days by weather',
      source: 'extract',
      table: 'seattle_weather',
      measures: [{ agg: 'count', column: null, as: 'days' }],
      dimensions: [{ column: 'weather', grain: null }],
      filters: [],
      sort: [{ by: 'days', direction: 'desc' }],
      limit: 10,
      chart: 'bar',
    },
  });
  const asked = await api(
    user,
    tenantId,
    'POST',
    `/agent/conversations/${conversation.json<{ id: string }>().id}/messages`,
    {
      text: 'How many days of each kind of weather?',
    },
  );
  expect(asked.statusCode, asked.body).toBe(200);
  const answer = asked.json<AgentMessage>();
  const alone = parseReportDefinition(answer.block!.report);
  if (!alone.ok) throw new Error('the answer’s report does not parse');
  const report = await createReport(
    user,
    tenantId,
    'title: From the agent\nsource: extract\nblocks:\n  - id: note\n    text: Asked the agent\n',
  );
  const saved = await api(user, tenantId, 'PUT', `/studio/reports/${report.id}`, {
    definition: addBlockToReport(report.definition, {
      block: alone.definition.blocks[0]!,
      params: answer.block!.params,
    }),
    version: 1,
    agent_message_id: answer.id,
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

/**
 * Every step of every lesson, done as the lesson says (its YAML snippets are what is saved), each
 * keyed by lesson and step id.
 */
function stepActions(user: TestUser, tenantId: string) {
  let weather: ReportPublic | undefined;
  let byKind: ReportPublic | undefined;
  const lesson = (slug: string) => lessonOf(user, tenantId, slug);
  return {
    'first-extract': {
      'upload-sample': async () => upload(user, tenantId, 'seattle_weather', await sample()),
      'upload-own': async () => upload(user, tenantId, 'orders_2026', 'id,total\n1,10.5\n2,20\n'),
    },
    'first-report': {
      'kpi-report': async () => {
        weather = await createReport(user, tenantId, snippets(await lesson('first-report'), 'kpi-report')[0]!);
      },
      'add-chart': async () => {
        await appendBlock(user, tenantId, weather!, snippets(await lesson('first-report'), 'add-chart')[0]!);
      },
      'third-version': async () => {
        await appendBlock(user, tenantId, weather!, snippets(await lesson('first-report'), 'third-version')[0]!);
      },
    },
    'parameters-and-paging': {
      'add-param': async () => {
        byKind = await createReport(user, tenantId, snippets(await lesson('parameters-and-paging'), 'add-param')[0]!);
      },
      'page-table': async () => {
        await appendBlock(user, tenantId, byKind!, snippets(await lesson('parameters-and-paging'), 'page-table')[0]!);
      },
    },
    'your-own-database': {
      connect: async () => {
        const updated = await api(admin, undefined, 'PUT', `/tenants/${tenantId}`, {
          dburl: 'postgresql://reader:secret@127.0.0.1:5432/acme',
        });
        expect(updated.statusCode, updated.body).toBe(200);
      },
      'tenant-report': async () => {
        await createReport(user, tenantId, snippets(await lesson('your-own-database'), 'tenant-report')[0]!);
      },
    },
    'asking-the-agent': {
      'agent-block': () => addAgentBlock(user, tenantId),
    },
    'sharing-and-scheduling': {
      'share-link': async () => {
        const link = await api(user, tenantId, 'POST', `/studio/reports/${weather!.id}/links`, {});
        expect(link.statusCode, link.body).toBe(201);
      },
      schedule: async () => {
        const schedule = await api(user, tenantId, 'POST', `/studio/reports/${weather!.id}/schedules`, {
          frequency: 'daily',
          time: '08:00',
          time_zone: 'Europe/Paris',
          addresses: ['weather-readers@example.com'],
        });
        expect(schedule.statusCode, schedule.body).toBe(201);
      },
    },
  } as Record<string, Record<string, () => Promise<void>>>;
}

beforeAll(async () => {
  learner = await createUser(ctx);
  other = await createUser(ctx);
  stranger = await createUser(ctx);
  await createRole(ctx, {
    grants: [PERMISSIONS.sourcesWrite, PERMISSIONS.reportsWrite, PERMISSIONS.agentUse],
    userIds: [learner.id, other.id],
  });
  tenant = await createTenant(ctx, admin, { name: 'Acme Health', members: [learner] });
  otherTenant = await createTenant(ctx, admin, { members: [other] });
});

describe('Learn (issue 60)', () => {
  it('lists the lessons in order, the sharing lesson with its scheduling step', async () => {
    const response = await api(learner, tenant.id, 'GET', '/learn/lessons');
    expect(response.statusCode, response.body).toBe(200);
    const lessons = response.json<Lessons>();
    expect(lessons.data.map((lesson) => lesson.slug)).toEqual(LESSON_SLUGS_IN_ORDER);
    expect(lessons.data.every((lesson) => lesson.steps_done === 0)).toBe(true);
    const sharing = await lessonOf(learner, tenant.id, 'sharing-and-scheduling');
    expect(sharing.steps.map((step) => [step.id, step.title])).toEqual([
      ['share-link', '1. Share a report'],
      ['schedule', '2. Send it on a schedule'],
    ]);
    expect(sharing.steps[0]!.html).toContain('<pre><code class="language-sh">');
  });

  it('another tenant’s work never counts: every step, done elsewhere first, is not done here', async () => {
    const actions = stepActions(other, otherTenant.id);
    for (const [slug, steps] of Object.entries(actions)) {
      for (const action of Object.values(steps)) await action();
      const outcome = await check(other, otherTenant.id, slug);
      expect(
        Object.values(outcome).every((step) => step.done),
        `${slug} in the other tenant`,
      ).toBe(true);
    }
    for (const slug of Object.keys(actions)) {
      const outcome = await check(learner, tenant.id, slug);
      expect(
        Object.values(outcome).some((step) => step.done),
        `${slug} in the learner's tenant`,
      ).toBe(false);
    }
  });

  it('walks each lesson as a new member: before each step its check says not done, after it done', async () => {
    const actions = stepActions(learner, tenant.id);
    for (const [slug, steps] of Object.entries(actions)) {
      const lesson = await lessonOf(learner, tenant.id, slug);
      expect(lesson.steps.map((step) => step.id)).toEqual(Object.keys(steps));
      for (const [stepId, action] of Object.entries(steps)) {
        const before = await check(learner, tenant.id, slug);
        expect(before[stepId]!.done, `${slug}/${stepId} before`).toBe(false);
        await action();
        const after = await check(learner, tenant.id, slug);
        expect(after[stepId], `${slug}/${stepId} after`).toMatchObject({ done: true });
      }
    }
  });

  it('says what is missing in words, naming the tenant', async () => {
    const fresh = await createTenant(ctx, admin, { name: 'Fresh Clinic', members: [learner] });
    const outcome = await check(learner, fresh.id, 'first-extract');
    expect(outcome['upload-sample']).toEqual({
      done: false,
      detail: 'No extract with at least 1 row in Fresh Clinic: upload a file in Studio',
    });
  });

  it('keeps progress per person and tenant across a new sign-in, and resets one lesson', async () => {
    const again = await login(ctx, learner.email, learner.password);
    const signedInAgain = { ...learner, token: again, headers: bearer(again) };
    const lessons = (await api(signedInAgain, tenant.id, 'GET', '/learn/lessons')).json<Lessons>();
    expect(lessons.data.map((lesson) => [lesson.slug, lesson.steps_done, lesson.steps])).toEqual([
      ['first-extract', 2, 2],
      ['first-report', 3, 3],
      ['parameters-and-paging', 2, 2],
      ['your-own-database', 2, 2],
      ['asking-the-agent', 1, 1],
      ['sharing-and-scheduling', 2, 2],
    ]);
    expect((await lessonOf(signedInAgain, tenant.id, 'first-report')).steps.every((step) => step.done)).toBe(true);
    // The other person's progress in their tenant is theirs; the learner has none there.
    const elsewhere = (await api(other, otherTenant.id, 'GET', '/learn/lessons')).json<Lessons>();
    expect(elsewhere.data.every((lesson) => lesson.steps_done === lesson.steps)).toBe(true);

    const reset = await api(signedInAgain, tenant.id, 'DELETE', '/learn/progress/first-report');
    expect(reset.statusCode, reset.body).toBe(204);
    const after = (await api(signedInAgain, tenant.id, 'GET', '/learn/lessons')).json<Lessons>();
    expect(after.data.find((lesson) => lesson.slug === 'first-report')?.steps_done).toBe(0);
    expect(after.data.find((lesson) => lesson.slug === 'first-extract')?.steps_done).toBe(2);
  });

  it('answers 404 for an unknown or hidden lesson, 403 outside one’s tenants, 400 without a tenant, 401 signed out', async () => {
    for (const [method, url] of [
      ['GET', '/learn/lessons/no-such-lesson'],
      ['POST', '/learn/lessons/no-such-lesson/check'],
      ['DELETE', '/learn/progress/no-such-lesson'],
    ] as const) {
      const response = await api(learner, tenant.id, method, url);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'lesson_not_found' });
    }
    const denied = await api(stranger, tenant.id, 'POST', '/learn/lessons/first-extract/check');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'permission_denied' });
    const noTenant = await api(learner, undefined, 'POST', '/learn/lessons/first-extract/check');
    expect(noTenant.statusCode).toBe(400);
    expect(noTenant.json()).toMatchObject({ code: 'bad_request' });
    const signedOut = await ctx.app.inject({ method: 'GET', url: '/api/v1/learn/lessons' });
    expect(signedOut.statusCode).toBe(401);
  });

  it('serves the sample file the first lesson uploads', async () => {
    const response = await api(learner, undefined, 'GET', '/learn/samples/seattle-weather.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.body).toBe(await sample());
    expect((await api(learner, undefined, 'GET', '/learn/samples/..%2Fpasswd')).statusCode).toBe(404);
    // A plain link downloads it: no token is needed.
    const anonymous = await ctx.app.inject({ url: '/api/v1/learn/samples/seattle-weather.csv' });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['content-disposition']).toBe('attachment; filename="seattle-weather.csv"');
  });
});

describe('Learn without an agent model', () => {
  const { ctx: plain } = useTestContext();
  it('hides the agent lesson: not listed, and a 404 to open or check', async () => {
    const user = await createUser(plain);
    const listed = await plain.app.inject({ url: '/api/v1/learn/lessons', headers: user.headers });
    expect(listed.json<Lessons>().data.map((lesson) => lesson.slug)).not.toContain('asking-the-agent');
    const opened = await plain.app.inject({ url: '/api/v1/learn/lessons/asking-the-agent', headers: user.headers });
    expect(opened.statusCode).toBe(404);
  });
});

describe('Learn checks are rate-limited per account', () => {
  const { ctx: limited, admin: limitedAdmin } = useTestContext({
    config: { rateLimits: { ...generousRateLimits, learnChecksPerAccount: { max: 2, windowMs: 60_000 } } },
  });
  it('answers 429 rate_limited once an account has checked as often as the rule allows', async () => {
    const user = await createUser(limited);
    const own = await createTenant(limited, limitedAdmin, { members: [user] });
    const checkOnce = () =>
      limited.app.inject({
        method: 'POST',
        url: '/api/v1/learn/lessons/first-extract/check',
        headers: tenantHeaders(user, own.id),
      });
    expect((await checkOnce()).statusCode).toBe(200);
    expect((await checkOnce()).statusCode).toBe(200);
    const refused = await checkOnce();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
