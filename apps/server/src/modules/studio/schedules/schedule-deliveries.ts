import { randomUUID } from 'node:crypto';
import { parseAlertCondition, type ReportPublic } from '@dataplatform/contract';
import { and, eq, inArray, TransactionRollbackError } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../../../db/client.js';
import { tenantMembers, users } from '../../../db/schema/index.js';
import type { Clock } from '../../../lib/clock.js';
import { AppError, describeError } from '../../../lib/errors.js';
import type { AuditService } from '../../audit/audit.service.js';
import { enqueueMail } from '../../mail/mail.service.js';
import type { StudioScope } from '../engine/engine.js';
import type { ReportsService } from '../reports.service.js';
import { authorNotice, cappedCsv, composeReportMail, formatKpi, type DeliveredBlock } from './schedule-mail.js';
import { nextRunAfter, when } from './schedule-times.js';
import {
  claimDueSchedules,
  finishDelivery,
  releaseClaim,
  type NewScheduleRow,
  type ScheduleRow,
} from './schedules.repository.js';

/** A claimed schedule is not taken over by another instance before this, even if its deliverer died. */
const LEASE_MS = 5 * 60_000;
const CLAIM_BATCH = 5;
/** The width charts are drawn at for a mail: most mail readers show 600–700 px. */
const MAIL_CHART_WIDTH = 640;

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

/** What a schedule's service and its deliveries are built from. */
export interface ScheduleDeps {
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
}

/**
 * The delivering half of schedules (decision 065): who a schedule reaches now (members who still see
 * the report, and its addresses), running the report's blocks as the author, and claiming and
 * delivering what is due, each delivery's mails queued in the transaction that moves it on.
 */
export function createScheduleDeliveries(deps: ScheduleDeps) {
  const { db, clock, log, reports } = deps;

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

  return { audienceNow, runDue };
}
