import {
  HttpErrorSchema,
  PERMISSIONS,
  ReportIdParamsSchema,
  ScheduleCreateSchema,
  ScheduleIdParamsSchema,
  ScheduleSchema,
  SchedulesSchema,
  ScheduleUpdateSchema,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { denied, missing } from '../../../lib/route-responses.js';
import { currentActor } from '../../../plugins/auth.js';
import { scopeOf } from '../request-scope.js';
import type { SchedulesService } from './schedules.service.js';

/**
 * Reports by mail on a schedule, and alerts (issue 59), under /studio: every route needs
 * `reports:write` and a report the caller sees, in the tenant chosen with X-Tenant-ID.
 */
export const schedulesRoutes: FastifyPluginAsyncZod<{ schedules: SchedulesService }> = async (app, { schedules }) => {
  const tags = ['studio'];
  const write = { access: { permission: PERMISSIONS.reportsWrite } } as const;

  app.post(
    '/studio/reports/:report_id/schedules',
    {
      config: write,
      schema: {
        operationId: 'studio_report_schedules_create',
        tags,
        summary:
          'Mail a report daily, weekly or monthly at a time in an IANA time zone to members and addresses (50 at most); with `alert`, only when a KPI’s condition holds (audited)',
        params: ReportIdParamsSchema,
        body: ScheduleCreateSchema,
        response: {
          201: ScheduleSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await schedules.create(currentActor(request), scopeOf(request), request.params.report_id, request.body)),
  );

  app.get(
    '/studio/reports/:report_id/schedules',
    {
      config: write,
      schema: {
        operationId: 'studio_report_schedules_list',
        tags,
        summary: "A report's schedules and alerts, the oldest first",
        params: ReportIdParamsSchema,
        response: { 200: SchedulesSchema, ...missing, ...denied },
      },
    },
    async (request) => schedules.list(scopeOf(request), request.params.report_id),
  );

  app.patch(
    '/studio/schedules/:schedule_id',
    {
      config: write,
      schema: {
        operationId: 'studio_report_schedules_update',
        tags,
        summary: 'Pause or resume a schedule (audited); a resumed one is next due at its next time from now',
        params: ScheduleIdParamsSchema,
        body: ScheduleUpdateSchema,
        response: {
          200: ScheduleSchema,
          404: HttpErrorSchema,
          409: HttpErrorSchema,
          422: ValidationErrorSchema,
          ...denied,
        },
      },
    },
    async (request) =>
      schedules.update(currentActor(request), scopeOf(request), request.params.schedule_id, request.body),
  );

  app.delete(
    '/studio/schedules/:schedule_id',
    {
      config: write,
      schema: {
        operationId: 'studio_report_schedules_delete',
        tags,
        summary: 'Delete a schedule (audited): nothing more is mailed for it',
        params: ScheduleIdParamsSchema,
        response: { 204: z.null(), ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await schedules.remove(currentActor(request), scopeOf(request), request.params.schedule_id);
      return reply.code(204).send(null);
    },
  );
};
