import { randomUUID } from 'node:crypto';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  parseAlertCondition,
  SCHEDULES_PER_REPORT_MAX,
  scheduleMessages,
  type ReportPublic,
  type Schedule,
  type ScheduleCreate,
  type Schedules,
  type ScheduleUpdate,
} from '@dataplatform/contract';
import { and, eq, inArray, TransactionRollbackError } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../../../db/client.js';
import { tenantMembers, users } from '../../../db/schema/index.js';
import type { Actor } from '../../../lib/auth-context.js';
import type { Clock } from '../../../lib/clock.js';
import { AppError, conflict, describeError, fieldError } from '../../../lib/errors.js';
import type { AuditService } from '../../audit/audit.service.js';
import { enqueueMail } from '../../mail/mail.service.js';
import type { StudioScope } from '../engine/engine.js';
import type { ReportsService } from '../reports.service.js';
import { authorNotice, cappedCsv, composeReportMail, formatKpi, type DeliveredBlock } from './schedule-mail.js';
import { nextRunAfter } from './schedule-times.js';
import {
  claimDueSchedules,
  countSchedules,
  deleteSchedule,
  findSchedule,
  finishDelivery,
  insertSchedule,
  listSchedules,
  releaseClaim,
  updateSchedule,
  type NewScheduleRow,
  type ScheduleRow,
} from './schedules.repository.js';

/** A claimed schedule is not taken over by another instance before this, even if its deliverer died. */
const LEASE_MS = 5 * 60_000;
const CLAIM_BATCH = 5;
/** The width charts are drawn at for a mail: most mail readers show 600–700 px. */
const MAIL_CHART_WIDTH = 640;

const scheduleNotFound = () => new AppError('schedule_not_found', scheduleMessages.notFound);

function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    report_id: row.reportId,
    frequency: row.frequency,
    time: row.time,
    time_zone: row.timeZone,
    weekday: row.weekday,
    day_of_month: row.dayOfMonth,
    member_ids: row.memberIds,
    addresses: row.addresses,
    alert: row.alertBlock && row.alertCondition ? { block: row.alertBlock, condition: row.alertCondition } : null,
    status: row.status,
    status_reason: row.statusReason,
    next_run_at: row.status === 'active' ? row.nextRunAt.toISOString() : null,
    last_run_at: row.lastRunAt?.toISOString() ?? null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

const snapshot = (row: ScheduleRow) => ({ ...toSchedule(row), next_run_at: undefined });

const when = (row: Pick<ScheduleRow, 'frequency' | 'time' | 'timeZone' | 'weekday' | 'dayOfMonth'>) => ({
  frequency: row.frequency,
  time: row.time,
  timeZone: row.timeZone,
  weekday: row.weekday,
  dayOfMonth: row.dayOfMonth,
});

interface Person {
  id: string;
  email: string;
  isActive: boolean;
  isSuperuser: boolean;
}

/** Why a delivery did not go out, told to the author; `stop` also stops the schedule. */
class DeliveryProblem extends Error {
  constructor(
    message: string,
    readonly stop: boolean,
  ) {
    super(message);
  }
}

/**
 * Reports mailed on a schedule, and alerts (issue 59, decision 065). An author (`reports:write`)
 * schedules a report they can see; each due period one instance claims the schedule, runs the
 * report's blocks as the author, and queues the mails in the outbox in the transaction that moves the
 * schedule on, so a delivery is queued once across a fleet and sent by the outbox worker.
 */
export function createSchedulesService(deps: {
  db: Database;
  clock: Clock;
  audit: AuditService;
  log: FastifyBaseLogger;
  reports: Pick<ReportsService, 'get' | 'run' | 'drawChart' | 'exportBlock'>;
  /** The scope a schedule of the tenant runs in (its tenant if still active), or null. */
  tenantScope: (tenantId: string) => Promise<StudioScope | null>;
  roleNamesOf: (userId: string) => Promise<string[]>;
  /** The time as the author's sandbox test clock has it (the real time without one). */
  authorTime: (userId: string) => Promise<Date>;
  wakeMailer: () => void;
  frontendHost: string;
}) {
  const { db, clock, audit, log, reports } = deps;

  const reportLink = (report: Pick<ReportPublic, 'slug'>) =>
    `${deps.frontendHost}/studio/reports/${encodeURIComponent(report.slug)}`;

  async function people(tx: DbOrTx, ids: readonly string[]): Promise<Map<string, Person>> {
    if (ids.length === 0) return new Map();
    const rows = await tx
      .select({ id: users.id, email: users.email, isActive: users.isActive, isSuperuser: users.isSuperuser })
      .from(users)
      .where(inArray(users.id, [...ids]));
    return new Map(rows.map((row) => [row.id, row]));
  }

  async function membersOf(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .select({ userId: tenantMembers.userId })
      .from(tenantMembers)
      .where(and(eq(tenantMembers.tenantId, tenantId), inArray(tenantMembers.userId, [...ids])));
    return new Set(rows.map((row) => row.userId));
  }

  async function viewerScope(base: StudioScope, person: Person): Promise<StudioScope> {
    return {
      ...base,
      viewer: { id: person.id, superuser: person.isSuperuser, roleNames: await deps.roleNamesOf(person.id) },
    };
  }

  /** Whether `person` sees the report in `base`'s tenant (a report every member sees needs no query). */
  async function sees(base: StudioScope, report: ReportPublic, person: Person): Promise<boolean> {
    if (report.visibility === 'tenant' || report.built_in) return true;
    try {
      await reports.get(await viewerScope(base, person), report.id);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.errorCode === 'report_not_found') return false;
      throw error;
    }
  }

  /**
   * Who may get the report now: active members of the tenant who see it, and addresses (on a
   * restricted report, only addresses of such members). The rest are left out, and named.
   */
  async function audienceNow(
    base: StudioScope,
    report: ReportPublic,
    memberIds: readonly string[],
    addresses: readonly string[],
  ): Promise<{ members: Person[]; addresses: string[]; dropped: string[] }> {
    const found = await people(db, memberIds);
    const inTenant = base.tenantId ? await membersOf(base.tenantId, memberIds) : new Set<string>();
    const members: Person[] = [];
    const dropped: string[] = [];
    for (const id of memberIds) {
      const person = found.get(id);
      if (person && person.isActive && inTenant.has(id) && (await sees(base, report, person))) members.push(person);
      else dropped.push(person?.email ?? id);
    }
    const kept: string[] = [];
    if (report.visibility === 'restricted' && !report.built_in && addresses.length > 0) {
      const byEmail = await db
        .select({ id: users.id, email: users.email, isActive: users.isActive, isSuperuser: users.isSuperuser })
        .from(users)
        .where(inArray(users.email, [...addresses]));
      const owners = new Map(byEmail.map((row) => [row.email, row]));
      const inTenantByEmail = base.tenantId
        ? await membersOf(
            base.tenantId,
            byEmail.map((row) => row.id),
          )
        : new Set();
      for (const address of addresses) {
        const owner = owners.get(address);
        if (owner && owner.isActive && inTenantByEmail.has(owner.id) && (await sees(base, report, owner))) {
          kept.push(address);
        } else {
          dropped.push(address);
        }
      }
    } else {
      kept.push(...addresses);
    }
    return { members, addresses: kept, dropped };
  }

  /** A schedule of the caller's tenant on a report the caller sees, else a 404. */
  async function visibleSchedule(scope: StudioScope, id: string): Promise<ScheduleRow> {
    const row = await findSchedule(db, scope.tenantId, id);
    if (!row) throw scheduleNotFound();
    try {
      await reports.get(scope, row.reportId);
    } catch (error) {
      if (error instanceof AppError && error.errorCode === 'report_not_found') throw scheduleNotFound();
      throw error;
    }
    return row;
  }

  /** Runs the report's blocks (or the alert's KPI) as the author, and says what to mail, if anything. */
  async function compose(row: ScheduleRow, scope: StudioScope, report: ReportPublic, period: Date) {
    const whenText = `Delivered for ${period.toISOString().slice(0, 16).replace('T', ' ')} UTC (${row.frequency}, ${row.time} ${row.timeZone})`;
    const link = reportLink(report);
    if (row.alertBlock && row.alertCondition) {
      const block = report.blocks.find((candidate) => candidate.id === row.alertBlock);
      if (!block?.kpi)
        throw new DeliveryProblem(`The alert's block "${row.alertBlock}" is no longer a KPI of the report`, false);
      const result = await reports.run(scope, report.id, { block: block.id, params: {}, skip: 0 });
      const column = result.columns.findIndex((candidate) => candidate.name === block.kpi!.value);
      const raw = column >= 0 ? result.rows[0]?.[column] : undefined;
      const value = raw === undefined ? null : raw;
      const condition = parseAlertCondition(row.alertCondition)!;
      const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
      const seen = JSON.stringify(value ?? null);
      let holds: boolean;
      if (condition.op === 'changes') holds = row.alertLastValue !== null && row.alertLastValue !== seen;
      else if (!Number.isFinite(number)) holds = false;
      else if (condition.op === '>') holds = number > condition.threshold;
      else if (condition.op === '<') holds = number < condition.threshold;
      else if (condition.op === '>=') holds = number >= condition.threshold;
      else holds = number <= condition.threshold;
      const formatted = formatKpi(value, block.kpi.format);
      const mail = holds
        ? composeReportMail({
            report,
            blocks: [{ kind: 'kpi', title: block.title ?? block.kpi.label ?? block.id, value: formatted }],
            link,
            when: whenText,
            alert: { block: block.title ?? block.id, condition: row.alertCondition, value: formatted },
          })
        : null;
      return { mail, alertLastValue: seen };
    }
    const blocks: DeliveredBlock[] = [];
    for (const block of report.blocks) {
      const title = block.title ?? block.id;
      if (block.kpi) {
        const result = await reports.run(scope, report.id, { block: block.id, params: {}, skip: 0 });
        const column = result.columns.findIndex((candidate) => candidate.name === block.kpi!.value);
        blocks.push({
          kind: 'kpi',
          title: block.kpi.label ?? title,
          value: formatKpi(result.rows[0]?.[column], block.kpi.format),
        });
      } else if (block.chart) {
        const { drawing } = await reports.drawChart(scope, report.id, {
          block: block.id,
          params: {},
          format: 'png',
          theme: 'light',
          width: MAIL_CHART_WIDTH,
        });
        if (drawing.format === 'png') blocks.push({ kind: 'chart', title, png: drawing.body, blockId: block.id });
      } else if (block.table) {
        const { stream } = await reports.exportBlock(scope, report.id, { block: block.id, params: {} });
        const csv = await cappedCsv(stream);
        blocks.push({ kind: 'table', title, blockId: block.id, ...csv });
      }
    }
    return { mail: composeReportMail({ report, blocks, link, when: whenText }), alertLastValue: null };
  }

  /**
   * Delivers one claimed schedule for the period `row.nextRunAt`: at `now` (the author's time), the
   * mails go into the outbox in the transaction that moves the schedule on. Problems are told to the
   * author in that same transaction, and a report gone or seen by nobody stops the schedule.
   */
  async function deliver(row: ScheduleRow, token: string, now: Date): Promise<'sent' | 'skipped' | 'failed' | 'lost'> {
    const period = row.nextRunAt;
    const next = nextRunAfter(when(row), now);
    const author = (await people(db, [row.createdBy])).get(row.createdBy);
    const notices: { subject: string; lines: string[] }[] = [];
    let outcome: 'sent' | 'skipped' | 'failed' = 'failed';
    let mails: {
      to: string;
      mail: {
        subject: string;
        text: string;
        html: string;
        attachments: ReturnType<typeof composeReportMail>['attachments'];
      };
    }[] = [];
    const values: Partial<NewScheduleRow> = { nextRunAt: next };
    let reportTitle = 'a report';
    let reportForLink: Pick<ReportPublic, 'slug'> = { slug: row.reportId };
    try {
      if (!author?.isActive) throw new DeliveryProblem('Its author’s account is no longer active', true);
      const base = row.tenantId ? await deps.tenantScope(row.tenantId) : { tenantId: null, sealedDburl: null };
      if (!base) throw new DeliveryProblem('Its tenant no longer exists or is not active', true);
      const scope = await viewerScope(base, author);
      let report: ReportPublic;
      try {
        report = await reports.get(scope, row.reportId);
      } catch (error) {
        if (error instanceof AppError && error.errorCode === 'report_not_found') {
          throw new DeliveryProblem('The report was deleted, or you can no longer see it', true);
        }
        throw error;
      }
      reportTitle = `“${report.title}”`;
      reportForLink = report;
      const audience = await audienceNow(base, report, row.memberIds, row.addresses);
      if (audience.dropped.length > 0) {
        // Narrowed for good: a recipient the report was restricted away from is not mailed again.
        values.memberIds = audience.members.map((member) => member.id);
        values.addresses = audience.addresses;
        notices.push({
          subject: `Schedule of ${report.title}: recipients removed`,
          lines: [
            `The schedule of ${reportTitle} no longer mails ${audience.dropped.join(', ')}: they can no longer see the report (it was restricted, or they left the tenant).`,
          ],
        });
      }
      const recipients = [...new Set([...audience.members.map((member) => member.email), ...audience.addresses])];
      if (recipients.length === 0)
        throw new DeliveryProblem('None of its recipients can see the report any more', true);
      const composed = await compose(row, scope, report, period);
      if (composed.alertLastValue !== null) values.alertLastValue = composed.alertLastValue;
      if (composed.mail) {
        const mail = composed.mail;
        mails = recipients.map((to) => ({ to, mail }));
        outcome = 'sent';
      } else {
        outcome = 'skipped';
      }
      values.statusReason = null;
    } catch (error) {
      const stop = error instanceof DeliveryProblem && error.stop;
      const reason =
        error instanceof DeliveryProblem
          ? error.message
          : error instanceof AppError
            ? typeof error.detail === 'string'
              ? error.detail
              : error.detail.map((problem) => problem.msg).join('; ')
            : 'The report could not be run: an internal error (logged on the server)';
      if (!(error instanceof DeliveryProblem || error instanceof AppError)) {
        log.error({ scheduleId: row.id, err: describeError(error) }, 'scheduled report delivery failed');
      }
      values.statusReason = reason.slice(0, 1000);
      if (stop) values.status = 'stopped';
      outcome = 'failed';
      notices.push(
        stop
          ? {
              subject: `Schedule of ${reportTitle} stopped`,
              lines: [`Your schedule of ${reportTitle} was stopped: ${reason}.`],
            }
          : {
              subject: `Scheduled delivery of ${reportTitle} failed`,
              lines: [
                `The delivery of ${reportTitle} due ${period.toISOString()} was not sent: ${reason}.`,
                'The schedule stays on: the next period is tried as usual.',
              ],
            },
      );
    }
    const finished = await db
      .transaction(async (tx) => {
        const ok = await finishDelivery(tx, {
          id: row.id,
          token,
          period: period.toISOString(),
          outcome,
          ranAt: now,
          values,
        });
        if (!ok) {
          tx.rollback();
          return false;
        }
        for (const { to, mail } of mails) await enqueueMail(tx, { to, ...mail });
        if (author?.isActive) {
          for (const notice of notices) {
            await enqueueMail(tx, {
              to: author.email,
              ...authorNotice(notice.subject, notice.lines, reportLink(reportForLink)),
            });
          }
        }
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof TransactionRollbackError) return false;
        throw error;
      });
    if (!finished) return 'lost';
    if (mails.length > 0 || notices.length > 0) deps.wakeMailer();
    log.info({ scheduleId: row.id, period: period.toISOString(), outcome, mails: mails.length }, 'report schedule ran');
    return outcome;
  }

  /** Claims and delivers what is due until nothing is left; `authorId` limits it to one author's. */
  async function runDue(options: { dueAt: Date; authorId?: string }): Promise<number> {
    let delivered = 0;
    for (;;) {
      const token = randomUUID();
      const now = clock.now();
      const claimed = await claimDueSchedules(db, {
        dueAt: options.dueAt,
        now,
        leaseUntil: new Date(now.getTime() + LEASE_MS),
        token,
        limit: CLAIM_BATCH,
        ...(options.authorId ? { authorId: options.authorId } : {}),
      });
      for (const row of claimed) {
        try {
          const outcome = await deliver(
            row,
            token,
            options.authorId ? options.dueAt : await deps.authorTime(row.createdBy),
          );
          if (outcome !== 'lost') delivered += 1;
        } catch (error) {
          // The transaction itself failed (the database went away): the claim runs out and the
          // period is delivered by the next pass, here or elsewhere.
          log.error({ scheduleId: row.id, err: describeError(error) }, 'report schedule could not be finished');
          await releaseClaim(db, row.id, token).catch(() => undefined);
        }
      }
      if (claimed.length < CLAIM_BATCH) return delivered;
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  return {
    async list(scope: StudioScope, key: string): Promise<Schedules> {
      const report = await reports.get(scope, key);
      const rows = await listSchedules(db, scope.tenantId, report.id);
      return { data: rows.map(toSchedule), count: rows.length };
    },

    async create(actor: Actor, scope: StudioScope, key: string, body: ScheduleCreate): Promise<Schedule> {
      const report = await reports.get(scope, key);
      const memberIds = [...new Set(body.member_ids)];
      const addresses = [...new Set(body.addresses)];
      if (memberIds.length > 0) {
        if (scope.tenantId === null) throw fieldError(['body', 'member_ids'], scheduleMessages.memberNeedsTenant);
        const audience = await audienceNow(scope, report, memberIds, []);
        if (audience.dropped.length > 0) throw fieldError(['body', 'member_ids'], scheduleMessages.notMember);
      }
      if (body.alert) {
        const block = report.blocks.find((candidate) => candidate.id === body.alert!.block);
        if (!block?.kpi) throw fieldError(['body', 'alert', 'block'], scheduleMessages.alertBlockNotKpi);
      }
      const whenValues = {
        frequency: body.frequency,
        time: body.time,
        timeZone: body.time_zone,
        weekday: body.frequency === 'weekly' ? (body.weekday ?? null) : null,
        dayOfMonth: body.frequency === 'monthly' ? (body.day_of_month ?? null) : null,
      };
      const nextRunAt = nextRunAfter(whenValues, await deps.authorTime(actor.user.id));
      const row = await db.transaction(async (tx) => {
        if ((await countSchedules(tx, report.id)) >= SCHEDULES_PER_REPORT_MAX) {
          throw conflict(scheduleMessages.tooManySchedules);
        }
        const inserted = await insertSchedule(tx, {
          tenantId: scope.tenantId,
          reportId: report.id,
          createdBy: actor.user.id,
          ...whenValues,
          memberIds,
          addresses,
          alertBlock: body.alert?.block ?? null,
          alertCondition: body.alert?.condition ?? null,
          nextRunAt,
        });
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportScheduleCreate,
          targetType: AUDIT_TARGET_TYPES.reportSchedule,
          targetId: inserted.id,
          before: null,
          after: snapshot(inserted),
        });
        return inserted;
      });
      return toSchedule(row);
    },

    /** Pauses or resumes; a resumed schedule is next due at its next time from now, not for the periods it missed. */
    async update(actor: Actor, scope: StudioScope, id: string, body: ScheduleUpdate): Promise<Schedule> {
      const before = await visibleSchedule(scope, id);
      if (before.status === 'stopped') throw conflict(scheduleMessages.stoppedCannotResume);
      const values: Partial<NewScheduleRow> = body.paused
        ? { status: 'paused' }
        : before.status === 'paused'
          ? { status: 'active', nextRunAt: nextRunAfter(when(before), await deps.authorTime(before.createdBy)) }
          : {};
      const after = await db.transaction(async (tx) => {
        const row = (await updateSchedule(tx, id, { ...values, updatedAt: clock.now() })) ?? before;
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportScheduleUpdate,
          targetType: AUDIT_TARGET_TYPES.reportSchedule,
          targetId: id,
          before: snapshot(before),
          after: snapshot(row),
        });
        return row;
      });
      return toSchedule(after);
    },

    async remove(actor: Actor, scope: StudioScope, id: string): Promise<void> {
      await visibleSchedule(scope, id);
      await db.transaction(async (tx) => {
        const deleted = await deleteSchedule(tx, id);
        if (!deleted) throw scheduleNotFound();
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.reportScheduleDelete,
          targetType: AUDIT_TARGET_TYPES.reportSchedule,
          targetId: id,
          before: snapshot(deleted),
          after: null,
        });
      });
    },

    /** Delivers every schedule due now (each at its author's time); what the worker runs each poll. */
    runDue: () => runDue({ dueAt: clock.now() }),

    /** The sandbox test clock moved `authorId`'s time to `now`: their schedules due by then run at once. */
    runDueFor: (authorId: string, now: Date) => runDue({ dueAt: now, authorId }),

    start(pollIntervalMs: number) {
      if (timer) return;
      const tick = () => {
        running = runDue({ dueAt: clock.now() })
          .catch((error: unknown) => log.error({ err: describeError(error) }, 'report schedules pass failed'))
          .finally(() => {
            running = undefined;
            if (timer) timer = setTimeout(tick, pollIntervalMs).unref();
          });
      };
      timer = setTimeout(tick, pollIntervalMs).unref();
    },

    async stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

export type SchedulesService = ReturnType<typeof createSchedulesService>;
