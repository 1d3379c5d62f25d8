import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId, timestamptz, updatedAt } from './columns.js';
import { tenants } from './tenants.js';
import { users } from './users.js';

/**
 * Reports mailed on a schedule, and alerts (issue 59, decision 065). `report_id` is a tenant's
 * report or a built-in one, so it has no foreign key: a deleted report is noticed by the next run,
 * which stops the schedule and tells its author. `next_run_at` is the instant the next delivery is
 * due; an instance claims a due row by setting `claim_token` and `claimed_until` (a lease), and the
 * delivery's outbox rows are written in the transaction that moves `next_run_at` on, conditional on
 * that token, so a delivery is queued once across a fleet and never half.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for a built-in report scheduled without a tenant (addresses only). */
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    reportId: uuid('report_id').notNull(),
    createdBy: ownerId('created_by', () => users.id),
    frequency: text('frequency', { enum: ['daily', 'weekly', 'monthly'] }).notNull(),
    /** HH:MM, local to `time_zone`. */
    time: text('time').notNull(),
    timeZone: text('time_zone').notNull(),
    /** Weekly: 1 Monday … 7 Sunday. */
    weekday: integer('weekday'),
    /** Monthly: 1 to 28. */
    dayOfMonth: integer('day_of_month'),
    memberIds: jsonb('member_ids').$type<string[]>().notNull().default([]),
    addresses: jsonb('addresses').$type<string[]>().notNull().default([]),
    /** An alert: the KPI block watched and its condition (`> 1000`, `< 0`, `changes`). */
    alertBlock: text('alert_block'),
    alertCondition: text('alert_condition'),
    /** The figure the last run of an alert saw (JSON), for `changes`. */
    alertLastValue: text('alert_last_value'),
    status: text('status', { enum: ['active', 'paused', 'stopped'] })
      .notNull()
      .default('active'),
    statusReason: text('status_reason'),
    nextRunAt: timestamptz('next_run_at').notNull(),
    claimToken: uuid('claim_token'),
    claimedUntil: timestamptz('claimed_until'),
    lastRunAt: timestamptz('last_run_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('report_schedules_frequency_check', sql`${t.frequency} in ('daily', 'weekly', 'monthly')`),
    check('report_schedules_status_check', sql`${t.status} in ('active', 'paused', 'stopped')`),
    index('report_schedules_due_idx').on(t.status, t.nextRunAt),
    index('report_schedules_report_id_idx').on(t.reportId),
    index('report_schedules_created_by_idx').on(t.createdBy),
  ],
);

/**
 * One row per schedule and period it ran for (the idempotency key of a delivery): written in the
 * delivery's transaction, so a period is delivered, or an alert checked, at most once.
 */
export const reportScheduleRuns = pgTable(
  'report_schedule_runs',
  {
    scheduleId: ownerId('schedule_id', () => reportSchedules.id),
    /** The due instant the run was for, ISO 8601. */
    period: text('period').notNull(),
    /** `sent`, `skipped` (an alert whose condition did not hold), `failed` (the author was told). */
    outcome: text('outcome').notNull(),
    ranAt: timestamptz('ran_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.period] })],
);
