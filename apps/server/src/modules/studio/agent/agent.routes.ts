import {
  AgentAskSchema,
  AgentCompiledSchema,
  AgentCompileSchema,
  AgentConversationCreateSchema,
  AgentConversationIdParamsSchema,
  AgentConversationListQuerySchema,
  AgentConversationSchema,
  AgentConversationsSchema,
  AgentConversationSummarySchema,
  AgentMessageIdParamsSchema,
  AgentMessageSchema,
  AgentRunResultSchema,
  AgentRunSchema,
  AgentStatusSchema,
  authMessages,
  HttpErrorSchema,
  PERMISSIONS,
  ValidationErrorSchema,
} from '@dataplatform/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import type { RateLimitRule } from '../../../config.js';
import type { HasPermission } from '../../../lib/auth-context.js';
import { disconnectSignal } from '../../../lib/disconnect-signal.js';
import { AppError } from '../../../lib/errors.js';
import { denied, missing } from '../../../lib/route-responses.js';
import { currentActor, currentAuth } from '../../../plugins/auth.js';
import { scopeOf } from '../request-scope.js';
import type { AgentService } from './agent.service.js';

/** What a question or a compile may answer besides its result. */
const askErrors = {
  400: HttpErrorSchema,
  404: HttpErrorSchema,
  422: z.union([ValidationErrorSchema, HttpErrorSchema]),
  429: HttpErrorSchema,
  502: HttpErrorSchema,
  503: HttpErrorSchema,
  ...denied,
};

const SettingsSchema = z.object({ samples: z.boolean() });

/** One server-sent event: its name and one line of JSON. */
const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

const wantsStream = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/event-stream');

/**
 * The Agent's API (issue 56): status, the guided builder's compile, conversations and their
 * questions, in the tenant chosen with X-Tenant-ID. Everything but the status needs `agent:use`.
 */
export const agentRoutes: FastifyPluginAsyncZod<{
  agent: AgentService;
  hasPermission: HasPermission;
  /** Questions and compiles per account (rateLimits.agentPerAccount). */
  limit: RateLimitRule;
}> = async (app, options) => {
  const { agent, hasPermission } = options;
  const tags = ['agent'];
  const use = { access: { permission: PERMISSIONS.agentUse } } as const;
  const perAccount = app.limit(
    'agent-account',
    options.limit,
    (request) => request.auth?.user.id,
    authMessages.tooManyRequests,
  );

  app.get(
    '/agent/status',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'agent_status',
        tags,
        summary: 'Whether a model is configured, which one, and whether the caller may use the agent',
        response: { 200: AgentStatusSchema, ...denied },
      },
    },
    async (request) => agent.status(await hasPermission(currentAuth(request), PERMISSIONS.agentUse)),
  );

  app.post(
    '/agent/plan/compile',
    {
      config: use,
      preHandler: [perAccount],
      schema: {
        operationId: 'agent_compile_plan',
        tags,
        summary:
          'Compile a plan picked by hand (the guided builder) into SQL, a report block and a preview; no model is asked',
        body: AgentCompileSchema,
        response: { 200: AgentCompiledSchema, ...askErrors },
      },
    },
    async (request, reply) => agent.compile(scopeOf(request), request.body, disconnectSignal(reply)),
  );

  app.post(
    '/agent/conversations',
    {
      config: use,
      schema: {
        operationId: 'agent_conversations_create',
        tags,
        summary: 'Start a conversation with the agent in the chosen tenant',
        body: AgentConversationCreateSchema,
        response: { 201: AgentConversationSummarySchema, 400: HttpErrorSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await agent.createConversation(currentActor(request), scopeOf(request), request.body.title)),
  );

  app.get(
    '/agent/conversations',
    {
      config: use,
      schema: {
        operationId: 'agent_conversations_list',
        tags,
        summary: "The caller's conversations in the chosen tenant, the latest first",
        querystring: AgentConversationListQuerySchema,
        response: { 200: AgentConversationsSchema, 400: HttpErrorSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => agent.listConversations(currentActor(request), scopeOf(request), request.query),
  );

  app.get(
    '/agent/conversations/:conversation_id',
    {
      config: use,
      schema: {
        operationId: 'agent_conversations_read',
        tags,
        summary: 'One of the caller’s conversations with its messages (previews are run again with …/run)',
        params: AgentConversationIdParamsSchema,
        response: { 200: AgentConversationSchema, 400: HttpErrorSchema, ...missing, ...denied },
      },
    },
    async (request) => agent.getConversation(currentActor(request), scopeOf(request), request.params.conversation_id),
  );

  app.delete(
    '/agent/conversations/:conversation_id',
    {
      config: use,
      schema: {
        operationId: 'agent_conversations_delete',
        tags,
        summary: 'Delete one of the caller’s conversations and its messages',
        params: AgentConversationIdParamsSchema,
        response: { 204: z.null(), 400: HttpErrorSchema, ...missing, ...denied },
      },
    },
    async (request, reply) => {
      await agent.deleteConversation(currentActor(request), scopeOf(request), request.params.conversation_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/agent/conversations/:conversation_id/messages',
    {
      config: use,
      preHandler: [perAccount],
      // Server-sent events go out as they are written, never held back to be compressed.
      compress: false,
      schema: {
        operationId: 'agent_ask',
        tags,
        summary:
          'Ask a question: the answer is a checked plan, SQL or a reply, with its block and preview. With Accept: text/event-stream, the model’s text streams as `delta` events, then one `answer` or `error` event.',
        params: AgentConversationIdParamsSchema,
        body: AgentAskSchema,
        produces: ['application/json', 'text/event-stream'],
        response: { 200: AgentMessageSchema, ...askErrors },
      },
    },
    async (request, reply) => {
      const prepared = await agent.prepareAsk(
        currentActor(request),
        scopeOf(request),
        request.params.conversation_id,
        request.body,
      );
      const signal = disconnectSignal(reply);
      if (!wantsStream(request)) return agent.answer(prepared, signal);
      const stream = new PassThrough();
      void agent
        .answer(prepared, signal, {
          onDelta: (text) => stream.write(event('delta', { text })),
          onStage: (stage, attempt) => stream.write(event('stage', { stage, attempt })),
        })
        .then(
          (message) => stream.write(event('answer', message)),
          (error: unknown) => {
            if (signal.aborted) return;
            if (error instanceof AppError) {
              stream.write(event('error', { detail: error.detail, code: error.errorCode }));
            } else {
              request.log.error({ err: error }, 'an agent answer failed');
              stream.write(event('error', { detail: 'The agent failed; try again.', code: 'internal_error' }));
            }
          },
        )
        .finally(() => stream.end());
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          // nginx passes each event on at once rather than buffering the answer.
          .header('x-accel-buffering', 'no')
          // A stream is written as it is, never serialized: the 200 schema describes the JSON answer.
          .send(stream as never)
      );
    },
  );

  app.post(
    '/agent/conversations/:conversation_id/messages/:message_id/run',
    {
      config: use,
      schema: {
        operationId: 'agent_run_answer',
        tags,
        summary: "Run an answer's block again: a table's page (skip, limit, sort) or a chart's or KPI's rows",
        params: AgentMessageIdParamsSchema,
        body: AgentRunSchema,
        response: { 200: AgentRunResultSchema, ...askErrors },
      },
    },
    async (request, reply) =>
      agent.runMessage(
        currentActor(request),
        scopeOf(request),
        request.params.conversation_id,
        request.params.message_id,
        request.body,
        disconnectSignal(reply),
      ),
  );

  app.get(
    '/agent/settings',
    {
      config: use,
      schema: {
        operationId: 'agent_settings_read',
        tags,
        summary: "The chosen tenant's agent settings: whether sample values of short text columns go to the model",
        response: { 200: SettingsSchema, 400: HttpErrorSchema, ...denied },
      },
    },
    async (request) => agent.settings(scopeOf(request)),
  );

  app.put(
    '/agent/settings',
    {
      config: { access: { permission: PERMISSIONS.tenantsWrite } },
      schema: {
        operationId: 'agent_settings_update',
        tags,
        summary: 'Turn the sample values sent to the model on or off for the chosen tenant (audited)',
        body: SettingsSchema,
        response: { 200: SettingsSchema, 400: HttpErrorSchema, 422: ValidationErrorSchema, ...denied },
      },
    },
    async (request) => agent.updateSettings(currentActor(request), scopeOf(request), request.body.samples),
  );
};
