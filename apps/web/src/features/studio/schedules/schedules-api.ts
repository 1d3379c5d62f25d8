import type { Schedule, ScheduleCreate, Schedules } from '@dataplatform/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.js';

export const scheduleKeys = {
  list: (reportId: string) => ['studio', 'schedules', reportId] as const,
};

/** `GET /studio/reports/{id}/schedules`: the report's schedules and alerts, the oldest first. */
export function schedulesQueryOptions(reportId: string) {
  return queryOptions({
    queryKey: scheduleKeys.list(reportId),
    queryFn: ({ signal }) =>
      apiRequest<Schedules>({ path: `/studio/reports/${encodeURIComponent(reportId)}/schedules`, signal }),
    meta: { errorToast: false },
  });
}

/** `POST /studio/reports/{id}/schedules`. */
export function createSchedule(reportId: string, body: ScheduleCreate): Promise<Schedule> {
  return apiRequest<Schedule>({
    method: 'POST',
    path: `/studio/reports/${encodeURIComponent(reportId)}/schedules`,
    json: body,
  });
}

/** `PATCH /studio/schedules/{id}`: pause or resume. */
export function setSchedulePaused(scheduleId: string, paused: boolean): Promise<Schedule> {
  return apiRequest<Schedule>({
    method: 'PATCH',
    path: `/studio/schedules/${encodeURIComponent(scheduleId)}`,
    json: { paused },
  });
}

/** `DELETE /studio/schedules/{id}`. */
export function deleteSchedule(scheduleId: string): Promise<void> {
  return apiRequest<void>({ method: 'DELETE', path: `/studio/schedules/${encodeURIComponent(scheduleId)}` });
}
