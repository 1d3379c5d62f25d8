import './zod-config.js';
import { z } from 'zod';
import { EmailSchema } from './fields.js';

/*
 * Reports by mail on a schedule, and alerts (issue 59, decision 065). A schedule mails a report's
 * blocks daily, weekly or monthly at a time of day in an IANA time zone; an alert is a schedule on
 * one KPI block that mails only when its condition holds.
 */

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const SCHEDULE_STATUSES = ['active', 'paused', 'stopped'] as const;
/** Most recipients (members and addresses together) one schedule mails. */
export const SCHEDULE_RECIPIENTS_MAX = 50;
/** Most schedules one report may have. */
export const SCHEDULES_PER_REPORT_MAX = 20;
/** Rows of a table attached as CSV, at most (the mail says when a table was cut). */
export const SCHEDULE_CSV_ROWS_MAX = 5_000;
/** Bytes of one CSV attachment, at most. */
export const SCHEDULE_CSV_BYTES_MAX = 512 * 1024;

export const scheduleMessages = {
  notFound: 'Schedule not found',
  timeInvalid: 'A time is HH:MM on a 24-hour clock, from 00:00 to 23:59',
  timeZoneInvalid: 'Name a time zone of the IANA database, such as Europe/Paris or America/New_York',
  weekdayRequired: 'A weekly schedule names its day (1 Monday … 7 Sunday)',
  dayOfMonthRequired: 'A monthly schedule names its day of the month (1 to 28)',
  recipientsRequired: 'Name at least one recipient: a member of the tenant or an address',
  tooManyRecipients: `A schedule mails at most ${SCHEDULE_RECIPIENTS_MAX} recipients`,
  notMember: 'Every member named must be an active member of this tenant who can see the report',
  memberNeedsTenant: 'Choose a tenant with the X-Tenant-ID header to mail its members',
  conditionInvalid: 'A condition is > number, < number, >= number, <= number, or changes',
  alertBlockNotKpi: 'An alert watches a KPI block of the report',
  tooManySchedules: `A report has at most ${SCHEDULES_PER_REPORT_MAX} schedules: delete one first`,
  stoppedCannotResume: 'This schedule was stopped (its report was deleted or no recipient can see it): make a new one',
} as const;

/** True for a zone name the platform's time zone database knows (IANA names, e.g. Europe/Paris). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = z
  .string({ error: scheduleMessages.timeZoneInvalid })
  .max(64, scheduleMessages.timeZoneInvalid)
  .refine(isTimeZone, scheduleMessages.timeZoneInvalid);

export const ScheduleTimeSchema = z
  .string({ error: scheduleMessages.timeInvalid })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, scheduleMessages.timeInvalid);

/** `> 1000`, `< 0`, `>= 5`, `<= -2.5` or `changes`. */
export const ALERT_CONDITION_PATTERN = /^(changes|(>=|<=|>|<)\s*-?\d+(\.\d+)?)$/;
export const AlertConditionSchema = z
  .string({ error: scheduleMessages.conditionInvalid })
  .trim()
  .max(40, scheduleMessages.conditionInvalid)
  .regex(ALERT_CONDITION_PATTERN, scheduleMessages.conditionInvalid);

export const ScheduleAlertSchema = z.strictObject({
  /** The KPI block whose figure is watched. */
  block: z.string().min(1).max(100),
  condition: AlertConditionSchema,
});

const when = {
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  /** Local time of day in `time_zone`, HH:MM. */
  time: ScheduleTimeSchema,
  time_zone: TimeZoneSchema,
  /** Weekly: 1 Monday … 7 Sunday. */
  weekday: z.number().int().min(1).max(7).nullable().optional(),
  /** Monthly: the day of the month, 1 to 28 (every month has one). */
  day_of_month: z.number().int().min(1).max(28).nullable().optional(),
};

export const ScheduleCreateSchema = z
  .strictObject({
    ...when,
    /** Members of the tenant (user ids) who get the mail; each must be able to see the report. */
    member_ids: z.array(z.uuid()).max(SCHEDULE_RECIPIENTS_MAX, scheduleMessages.tooManyRecipients).default([]),
    /** Addresses that get the mail. */
    addresses: z.array(EmailSchema).max(SCHEDULE_RECIPIENTS_MAX, scheduleMessages.tooManyRecipients).default([]),
    /** Set for an alert: mail only when the KPI's condition holds. */
    alert: ScheduleAlertSchema.nullable().optional(),
  })
  .superRefine((value, ctx) => {
    const count = new Set(value.member_ids).size + new Set(value.addresses).size;
    if (count === 0)
      ctx.addIssue({ code: 'custom', path: ['addresses'], message: scheduleMessages.recipientsRequired });
    if (count > SCHEDULE_RECIPIENTS_MAX) {
      ctx.addIssue({ code: 'custom', path: ['addresses'], message: scheduleMessages.tooManyRecipients });
    }
    if (value.frequency === 'weekly' && value.weekday == null) {
      ctx.addIssue({ code: 'custom', path: ['weekday'], message: scheduleMessages.weekdayRequired });
    }
    if (value.frequency === 'monthly' && value.day_of_month == null) {
      ctx.addIssue({ code: 'custom', path: ['day_of_month'], message: scheduleMessages.dayOfMonthRequired });
    }
  });
export type ScheduleCreate = z.infer<typeof ScheduleCreateSchema>;

/** `PATCH /studio/schedules/{id}`: pause or resume (a stopped schedule stays stopped). */
export const ScheduleUpdateSchema = z.strictObject({
  paused: z.boolean(),
});
export type ScheduleUpdate = z.infer<typeof ScheduleUpdateSchema>;

export const ScheduleSchema = z.object({
  id: z.uuid(),
  report_id: z.uuid(),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  time: z.string(),
  time_zone: z.string(),
  weekday: z.number().int().nullable(),
  day_of_month: z.number().int().nullable(),
  member_ids: z.array(z.uuid()),
  addresses: z.array(z.string()),
  alert: z.object({ block: z.string(), condition: z.string() }).nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  /** Why a stopped schedule stopped, or why the last run failed. */
  status_reason: z.string().nullable(),
  next_run_at: z.iso.datetime().nullable(),
  last_run_at: z.iso.datetime().nullable(),
  created_by: z.uuid().nullable(),
  created_at: z.iso.datetime(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const SchedulesSchema = z.object({ data: z.array(ScheduleSchema), count: z.number().int() });
export type Schedules = z.infer<typeof SchedulesSchema>;

export const ScheduleIdParamsSchema = z.object({ schedule_id: z.uuid() });

/** A condition as the server checks it. */
export type AlertCondition = { op: 'changes' } | { op: '>' | '<' | '>=' | '<='; threshold: number };

export function parseAlertCondition(text: string): AlertCondition | undefined {
  const trimmed = text.trim();
  if (!ALERT_CONDITION_PATTERN.test(trimmed)) return undefined;
  if (trimmed === 'changes') return { op: 'changes' };
  const match = /^(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)$/.exec(trimmed)!;
  return { op: match[1] as '>' | '<' | '>=' | '<=', threshold: Number(match[2]) };
}
