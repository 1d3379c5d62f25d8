import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  SCHEDULES_PER_REPORT_MAX,
  scheduleMessages,
  type Schedule,
  type ScheduleCreate,
  type Schedules,
  type ScheduleUpdate,
} from '@dataplatform/contract';
import type { Actor } from '../../../lib/auth-context.js';
import { AppError, conflict, describeError, fieldError } from '../../../lib/errors.js';
import type { StudioScope } from '../engine/engine.js';
import { createScheduleDeliveries, type ScheduleDeps } from './schedule-deliveries.js';
import { nextRunAfter, when } from './schedule-times.js';
import {
  countSchedules,
  deleteSchedule,
  findSchedule,
  insertSchedule,
  listSchedules,
  updateSchedule,
  type NewScheduleRow,
  type ScheduleRow,
} from './schedules.repository.js';

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

/**
 * Reports mailed on a schedule, and alerts (issue 59, decision 065). An author (`reports:write`)
 * schedules a report they can see; each due period one instance claims the schedule, runs the
 * report's blocks as the author, and queues the mails in the outbox in the transaction that moves the
 * schedule on, so a delivery is queued once across a fleet and sent by the outbox worker.
 */
export function createSchedulesService(deps: ScheduleDeps) {
  const { db, clock, audit, log, reports } = deps;
  const { audienceNow, runDue } = createScheduleDeliveries(deps);

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
