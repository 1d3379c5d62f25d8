import { DateTime } from 'luxon';

/** When a schedule runs: daily, weekly on a weekday, or monthly on a day, at HH:MM in an IANA zone. */
export interface ScheduleWhen {
  frequency: 'daily' | 'weekly' | 'monthly';
  time: string;
  timeZone: string;
  weekday: number | null;
  dayOfMonth: number | null;
}

/** A schedule's times out of anything that holds them (a stored schedule, a new one). */
export const when = (schedule: ScheduleWhen): ScheduleWhen => ({
  frequency: schedule.frequency,
  time: schedule.time,
  timeZone: schedule.timeZone,
  weekday: schedule.weekday,
  dayOfMonth: schedule.dayOfMonth,
});

/**
 * The first instant strictly after `after` at which the schedule is due, computed in its zone by
 * Luxon so that daylight-saving changes keep the local time (a time skipped by a spring-forward
 * change runs at the first valid minute after it, as Luxon shifts it). A delivery late by several
 * periods (a server down for days, a test clock moved a week) is due once, for the latest period:
 * the next one is computed from the run's time, not from the missed period.
 */
export function nextRunAfter(when: ScheduleWhen, after: Date): Date {
  const [hour, minute] = when.time.split(':').map(Number) as [number, number];
  const local = DateTime.fromJSDate(after, { zone: when.timeZone });
  if (!local.isValid) throw new Error(`invalid time zone ${when.timeZone}`);
  const at = (day: DateTime) => day.set({ hour, minute, second: 0, millisecond: 0 });
  let candidate: DateTime;
  switch (when.frequency) {
    case 'daily':
      candidate = at(local);
      if (candidate <= local) candidate = at(local.plus({ days: 1 }));
      break;
    case 'weekly': {
      const weekday = when.weekday ?? 1;
      candidate = at(local.plus({ days: (weekday - local.weekday + 7) % 7 }));
      if (candidate <= local) candidate = at(local.plus({ days: ((weekday - local.weekday + 7) % 7) + 7 }));
      break;
    }
    case 'monthly': {
      const day = when.dayOfMonth ?? 1;
      candidate = at(local.set({ day }));
      if (candidate <= local) candidate = at(local.startOf('month').plus({ months: 1 }).set({ day }));
      break;
    }
  }
  return candidate.toJSDate();
}
