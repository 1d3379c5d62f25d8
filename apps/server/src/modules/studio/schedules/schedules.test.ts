import { randomUUID } from 'node:crypto';
import {
  PERMISSIONS,
  type ReportPublic,
  type Schedule,
  type Schedules,
  type TenantPublic,
} from '@dataplatform/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../../../../test/authz-fixtures.js';
import { advanceSandboxClock } from '../../../../test/billing.js';
import {
  createTestClock,
  createTestContext,
  createUser,
  useTestContext,
  type TestContext,
  type TestUser,
} from '../../../../test/harness.js';
import type { ReceivedMail } from '../../../../test/smtp.js';
import { createReport } from '../../../../test/studio-fixtures.js';
import { createTenant, tenantHeaders } from '../../../../test/tenant-fixtures.js';
import { auditLog, outbox, reportScheduleRuns, reportSchedules } from '../../../db/schema/index.js';
import { claimDueSchedules } from './schedules.repository.js';

/** Issue 59: reports by mail on a schedule, and alerts, through the outbox to a real SMTP server. */
const clock = createTestClock(new Date());
const { ctx, admin } = useTestContext({ clock });
const DAY = 86_400;

let tenant: TenantPublic;
let author: TestUser;
let reader: TestUser;
let outsider: TestUser;
let report: ReportPublic;

const DEFINITION = `title: Rates by payer
source: demo
blocks:
  - id: total
    title: Rates
    kpi:
      sql: SELECT count(*) AS n FROM rates
      value: n
  - id: by_payer
    title: Median rate by payer
    chart:
      sql: SELECT payer, median(negotiated_rate) AS median_rate FROM rates GROUP BY payer
      spec: { mark: bar, encoding: { x: { field: payer, type: nominal }, y: { field: median_rate, type: quantitative } } }
  - id: payers
    title: Payers
    table:
      sql: SELECT payer, count(*) AS n FROM rates GROUP BY payer ORDER BY payer
      page_size: 5
  - id: note
    text: Figures from the demo data.
`;

const as = (user: TestUser) => tenantHeaders(user, tenant.id);
const daily = { frequency: 'daily', time: '06:30', time_zone: 'Europe/Paris' } as const;

function createSchedule(body: object, user: TestUser = author, reportId = report.id) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/studio/reports/${reportId}/schedules`,
    headers: as(user),
    payload: body,
  });
}

async function scheduleOk(body: object, user: TestUser = author, reportId = report.id): Promise<Schedule> {
  const response = await createSchedule(body, user, reportId);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Schedule>();
}

async function scheduleRows(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(reportSchedules);
  return row!.n;
}

async function auditRows(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(auditLog);
  return row!.n;
}

/** Every mail to `to` received so far, after the outbox has sent what it holds. */
async function mailsTo(to: string): Promise<ReceivedMail[]> {
  await ctx.app.services.outbox.drain();
  return ctx.smtp.received.filter((mail) => mail.to.includes(to));
}

async function advance(user: TestUser, seconds: number) {
  const moved = await advanceSandboxClock(ctx, admin, user.id, seconds);
  expect(moved.statusCode, moved.body).toBe(200);
}

async function removeSchedule(id: string) {
  const deleted = await ctx.app.inject({
    method: 'DELETE',
    url: `/api/v1/studio/schedules/${id}`,
    headers: as(author),
  });
  expect(deleted.statusCode, deleted.body).toBe(204);
}

beforeAll(async () => {
  author = await createUser(ctx);
  reader = await createUser(ctx);
  outsider = await createUser(ctx);
  await createRole(ctx, { grants: [PERMISSIONS.reportsWrite], userIds: [author.id, outsider.id] });
  tenant = await createTenant(ctx, admin, { members: [author, reader, outsider] });
  report = await createReport(ctx, author, tenant.id, DEFINITION);
});

describe('report schedules (issue 59)', () => {
  it('refuses bad input with a 4xx in { detail, code } and keeps nothing of it', async () => {
    const schedulesBefore = await scheduleRows();
    const auditBefore = await auditRows();
    const addresses = (n: number) => Array.from({ length: n }, (_, i) => `reader-${i}@example.com`);
    const bad: [object, number, string][] = [
      [{ ...daily, time: '25:00', addresses: ['a@example.com'] }, 422, 'time'],
      [{ ...daily, time_zone: 'Mars/Olympus', addresses: ['a@example.com'] }, 422, 'time_zone'],
      [{ ...daily, addresses: addresses(51) }, 422, 'addresses'],
      [
        { ...daily, addresses: addresses(40), member_ids: Array.from({ length: 11 }, () => randomUUID()) },
        422,
        'addresses',
      ],
      [{ ...daily, addresses: ['not an address'] }, 422, 'addresses'],
      [{ ...daily, addresses: [] }, 422, 'addresses'],
      [{ ...daily, member_ids: [randomUUID()] }, 422, 'member_ids'],
      [{ ...daily, frequency: 'weekly', addresses: ['a@example.com'] }, 422, 'weekday'],
      [{ ...daily, addresses: ['a@example.com'], alert: { block: 'payers', condition: '> 1' } }, 422, 'alert'],
      [{ ...daily, addresses: ['a@example.com'], alert: { block: 'total', condition: 'is big' } }, 422, 'alert'],
    ];
    for (const [body, status, field] of bad) {
      const response = await createSchedule(body);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(status);
      const error = response.json<{ detail: { loc: (string | number)[] }[]; code: string }>();
      expect(error.code).toBe('validation_failed');
      expect(
        error.detail.some((problem) => problem.loc.includes(field)),
        JSON.stringify(error.detail),
      ).toBe(true);
    }
    const unseen = await createSchedule({ ...daily, addresses: ['a@example.com'] }, author, randomUUID());
    expect(unseen.statusCode).toBe(404);
    expect(unseen.json()).toMatchObject({ code: 'report_not_found' });
    expect(await scheduleRows()).toBe(schedulesBefore);
    expect(await auditRows()).toBe(auditBefore);
  });

  it('lists, pauses, resumes and deletes a schedule; another tenant and a reader without reports:write get none of it', async () => {
    const schedule = await scheduleOk({ ...daily, frequency: 'weekly', weekday: 1, addresses: ['list@example.com'] });
    expect(schedule).toMatchObject({ status: 'active', weekday: 1, time: '06:30', time_zone: 'Europe/Paris' });
    expect(new Date(schedule.next_run_at!).getUTCDay()).toBe(1);
    const list = await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/schedules`, headers: as(author) });
    expect(list.json<Schedules>().data.map((item) => item.id)).toContain(schedule.id);
    const denied = await ctx.app.inject({ url: `/api/v1/studio/reports/${report.id}/schedules`, headers: as(reader) });
    expect(denied.statusCode).toBe(403);

    const patch = (paused: boolean) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/studio/schedules/${schedule.id}`,
        headers: as(author),
        payload: { paused },
      });
    const paused = await patch(true);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json<Schedule>()).toMatchObject({ status: 'paused', next_run_at: null });
    const resumed = await patch(false);
    expect(resumed.json<Schedule>()).toMatchObject({ status: 'active' });

    const otherTenant = await createTenant(ctx, admin, { members: [author] });
    const elsewhere = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/studio/schedules/${schedule.id}`,
      headers: tenantHeaders(author, otherTenant.id),
    });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toMatchObject({ code: 'schedule_not_found' });
    await removeSchedule(schedule.id);
    const gone = await patch(true);
    expect(gone.statusCode).toBe(404);
  });

  it('delivers when the sandbox clock passes its time: KPIs in the text, the chart as an inline PNG, the table as CSV, once', async () => {
    const schedule = await scheduleOk({ ...daily, member_ids: [reader.id], addresses: ['outside@example.com'] });
    await advance(author, DAY);
    const mail = await ctx.smtp.waitFor(
      (received) => received.to.includes(reader.email) && received.subject.includes('Rates by payer'),
    );
    expect(mail.subject).toBe('Rates by payer — scheduled report');
    expect(mail.text).toMatch(/Rates: [\d,]+/);
    const png = mail.attachments.find((file) => file.contentType === 'image/png');
    expect(png?.cid).toBe('chart-by_payer@report');
    expect(png!.content.subarray(1, 4).toString()).toBe('PNG');
    // The HTML names the image by its Content-ID; the parser has resolved it to the attached PNG.
    expect(mail.html).toContain('<img src="data:image/png;base64,');
    const csv = mail.attachments.find((file) => file.contentType.startsWith('text/csv'));
    expect(csv?.filename).toBe(`${report.slug}-payers.csv`);
    expect(csv!.content.toString().split('\r\n')[0]).toBe('payer,n');
    await ctx.smtp.waitFor((received) => received.to.includes('outside@example.com'));

    // Within the same period nothing more goes out; the next day, the next delivery.
    await advance(author, 60);
    expect(await mailsTo(reader.email)).toHaveLength(1);
    await advance(author, DAY);
    await ctx.smtp.waitFor(
      () => ctx.smtp.received.filter((received) => received.to.includes(reader.email)).length === 2,
    );
    const runs = await ctx.database.db
      .select()
      .from(reportScheduleRuns)
      .where(eq(reportScheduleRuns.scheduleId, schedule.id));
    expect(runs.map((run) => run.outcome)).toEqual(['sent', 'sent']);
    await removeSchedule(schedule.id);
  });

  it('mails an alert only when its condition holds, at most once a period; `changes` needs a change', async () => {
    const never = await scheduleOk({
      ...daily,
      addresses: ['never@example.com'],
      alert: { block: 'total', condition: '< 0' },
    });
    const always = await scheduleOk({
      ...daily,
      addresses: ['always@example.com'],
      alert: { block: 'total', condition: '> -1' },
    });
    const changes = await scheduleOk({
      ...daily,
      addresses: ['changes@example.com'],
      alert: { block: 'total', condition: 'changes' },
    });
    await advance(author, DAY);
    const alert = await ctx.smtp.waitFor((received) => received.to.includes('always@example.com'));
    expect(alert.subject).toBe('Alert: Rates by payer — Rates > -1');
    expect(alert.text).toMatch(/The alert on Rates \(> -1\) holds: the figure is [\d,]+\./);
    await advance(author, 60);
    expect(await mailsTo('always@example.com')).toHaveLength(1);
    expect(await mailsTo('never@example.com')).toHaveLength(0);
    expect(await mailsTo('changes@example.com')).toHaveLength(0);
    const [seen] = await ctx.database.db.select().from(reportSchedules).where(eq(reportSchedules.id, changes.id));
    expect(seen!.alertLastValue).toMatch(/^\d+$/);
    for (const id of [never.id, always.id, changes.id]) await removeSchedule(id);
  });

  it('keeps the mail in the outbox while SMTP is down and sends it once when it returns', async () => {
    const schedule = await scheduleOk({ ...daily, addresses: ['outage@example.com'] });
    ctx.smtp.state.accepting = false;
    try {
      await advance(author, DAY);
      await ctx.app.services.outbox.drain();
      const [row] = await ctx.database.db.select().from(outbox).where(eq(outbox.recipient, 'outage@example.com'));
      expect(row).toMatchObject({ status: 'pending' });
      expect(row!.attachments?.map((file) => file.contentType).sort()).toEqual(['image/png', 'text/csv']);
      expect(row!.attempts).toBeGreaterThan(0);
    } finally {
      ctx.smtp.state.accepting = true;
    }
    // The test clock stands still: move it past the retry's wait and the mail server check.
    clock.advance(60_000);
    await ctx.app.services.outbox.drain();
    await ctx.smtp.waitFor((received) => received.to.includes('outage@example.com'));
    await advance(author, 60);
    expect(await mailsTo('outage@example.com')).toHaveLength(1);
    await removeSchedule(schedule.id);
  });

  it('narrows a schedule when the report is restricted away from a recipient, stops it when the report is deleted, and tells the author', async () => {
    const definition = DEFINITION.replace('title: Rates by payer', 'title: Restricted rates');
    const restricted = await createReport(ctx, author, tenant.id, definition);
    const schedule = await scheduleOk({ ...daily, member_ids: [reader.id, outsider.id] }, author, restricted.id);
    const set = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/studio/reports/${restricted.id}/visibility`,
      headers: as(author),
      payload: { visibility: 'restricted', user_ids: [reader.id] },
    });
    expect(set.statusCode, set.body).toBe(200);
    await advance(author, DAY);
    await ctx.smtp.waitFor((mail) => mail.to.includes(reader.email) && mail.subject.startsWith('Restricted rates'));
    const narrowed = await ctx.smtp.waitFor(
      (mail) => mail.to.includes(author.email) && mail.subject.includes('recipients removed'),
    );
    expect(narrowed.text).toContain(outsider.email);
    expect(await mailsTo(outsider.email)).toHaveLength(0);
    const [row] = await ctx.database.db.select().from(reportSchedules).where(eq(reportSchedules.id, schedule.id));
    expect(row!.memberIds).toEqual([reader.id]);

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/studio/reports/${restricted.id}`,
      headers: as(author),
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await advance(author, DAY);
    const stopped = await ctx.smtp.waitFor(
      (mail) => mail.to.includes(author.email) && mail.subject.includes('stopped'),
    );
    expect(stopped.text).toContain('The report was deleted, or you can no longer see it');
    const [after] = await ctx.database.db.select().from(reportSchedules).where(eq(reportSchedules.id, schedule.id));
    expect(after).toMatchObject({ status: 'stopped' });
  });

  it('mails the author the reason when a run fails, and keeps the schedule on', async () => {
    const definition = DEFINITION.replace('title: Rates by payer', 'title: Soon broken');
    const broken = await createReport(ctx, author, tenant.id, definition);
    const schedule = await scheduleOk({ ...daily, addresses: ['broken@example.com'] }, author, broken.id);
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/studio/reports/${broken.id}`,
      headers: as(author),
      payload: {
        version: 1,
        definition: definition.replace('FROM rates GROUP BY payer ORDER BY payer', 'FROM no_such_table'),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await advance(author, DAY);
    const notice = await ctx.smtp.waitFor(
      (mail) => mail.to.includes(author.email) && mail.subject.includes('Soon broken'),
    );
    expect(notice.subject).toBe('Scheduled delivery of “Soon broken” failed');
    expect(notice.text).toMatch(/was not sent: .+/);
    expect(await mailsTo('broken@example.com')).toHaveLength(0);
    const [row] = await ctx.database.db.select().from(reportSchedules).where(eq(reportSchedules.id, schedule.id));
    expect(row).toMatchObject({ status: 'active' });
    expect(row!.statusReason).toBeTruthy();
  });
});

describe('report schedules across a fleet (issue 59)', () => {
  let second: TestContext;
  beforeAll(async () => {
    second = await createTestContext({ clock, sharedDatabase: ctx.database });
  });
  afterAll(() => second.close());

  async function dueNow(address: string) {
    const schedule = await scheduleOk({ ...daily, addresses: [address] });
    await ctx.database.db
      .update(reportSchedules)
      .set({ nextRunAt: new Date(clock.now().getTime() - 1000) })
      .where(eq(reportSchedules.id, schedule.id));
    return schedule;
  }

  const queued = async (address: string) =>
    (await ctx.database.db.select().from(outbox).where(eq(outbox.recipient, address))).length;

  it('two instances that both see a schedule due deliver it once', async () => {
    const schedule = await dueNow('fleet@example.com');
    const results = await Promise.all([ctx.app.services.schedules.runDue(), second.app.services.schedules.runDue()]);
    expect(results.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await queued('fleet@example.com')).toBe(1);
    // Sent by the outbox of whichever instance queued it, each with a mail server of its own.
    const sent = (mail: { to: string[] }) => mail.to.includes('fleet@example.com');
    await Promise.any([ctx.smtp.waitFor(sent), second.smtp.waitFor(sent)]);
    await removeSchedule(schedule.id);
  });

  it('a delivery whose instance died after claiming it is delivered once by another after the lease', async () => {
    const schedule = await dueNow('restart@example.com');
    const deadToken = randomUUID();
    const claimed = await claimDueSchedules(ctx.database.db, {
      dueAt: clock.now(),
      now: clock.now(),
      leaseUntil: new Date(clock.now().getTime() + 5 * 60_000),
      token: deadToken,
      limit: 50,
    });
    expect(claimed.map((row) => row.id)).toContain(schedule.id);
    // While the lease holds, nobody else takes it.
    expect(await second.app.services.schedules.runDue()).toBe(0);
    clock.advance(5 * 60_000 + 1000);
    expect(await second.app.services.schedules.runDue()).toBe(1);
    expect(await ctx.app.services.schedules.runDue()).toBe(0);
    expect(await queued('restart@example.com')).toBe(1);
    await removeSchedule(schedule.id);
  });
});
