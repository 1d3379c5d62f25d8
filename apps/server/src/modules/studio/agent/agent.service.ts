import {
  AGENT_PREVIEW_ROWS,
  agentMessages,
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  type AgentAsk,
  type AgentCompile,
  type AgentCompiled,
  type AgentConversation,
  type AgentConversations,
  type AgentMessage,
  type AgentPreview,
  type AgentRun,
  type AgentStage,
  type AgentStatus,
  type PaginationQuery,
  type ReportRunResult,
} from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AgentConfig } from '../../../config.js';
import type { Database } from '../../../db/client.js';
import type { Actor } from '../../../lib/auth-context.js';
import type { Clock } from '../../../lib/clock.js';
import { AppError, badRequest } from '../../../lib/errors.js';
import type { AuditService } from '../../audit/audit.service.js';
import type { StudioEngine, StudioScope } from '../engine/engine.js';
import { clip, createAnswerChecks, Rejected, type AnswerPayload } from './answer-checks.js';
import {
  addTokens,
  appendMessages,
  deleteConversation,
  findConversation,
  findMessage,
  findOwnedAnswer,
  insertConversation,
  listConversations,
  listMessages,
  samplesOn,
  setSamples,
  tokensUsed,
  touchConversation,
  type ConversationRow,
  type MessageRow,
} from './agent.repository.js';
import { answerJsonSchema, groundSources, promptMessages, systemPrompt } from './grounding.js';
import type { ChatMessage, ModelClient } from './model-client.js';
import { PlanProblem } from './plan-compiler.js';

const DEFAULT_TITLE = 'New conversation';
/** Earlier messages of a conversation sent with a follow-up (its last plan among them). */
const HISTORY_MESSAGES = 8;

const conversationNotFound = () => new AppError('conversation_not_found', agentMessages.conversationNotFound);
const notConfigured = () => new AppError('agent_not_configured', agentMessages.notConfigured);

/** Seconds until the next UTC midnight, when a tenant's daily budget comes back. */
function secondsToMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

const dayOf = (now: Date) => now.toISOString().slice(0, 10);

function toMessage(row: MessageRow): AgentMessage {
  const payload = row.payload as unknown as AnswerPayload;
  return {
    id: row.id,
    role: row.role,
    kind: row.kind,
    text: row.text,
    ...(payload.plan ? { plan: payload.plan } : {}),
    ...(payload.sql ? { sql: payload.sql } : {}),
    ...(payload.block ? { block: payload.block } : {}),
    repairs: payload.repairs ?? [],
    tokens: row.tokens,
    report_id: row.reportId,
    created_at: row.createdAt.toISOString(),
  };
}

const toSummary = (row: ConversationRow) => ({
  id: row.id,
  title: row.title,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** A question that passed every check made before the model is asked. */
export interface PreparedAsk {
  actor: Actor;
  scope: StudioScope;
  conversation: ConversationRow;
  question: string;
  report: { id: string; text: string } | undefined;
}

export interface AskEvents {
  onDelta?: ((text: string) => void) | undefined;
  onStage?: ((stage: AgentStage, attempt: number) => void) | undefined;
}

/**
 * The Agent (issue 56, docs/decisions/061-the-agent.md): conversations per person and tenant, the
 * loop that asks a model for a plan and checks it (schema, compile, guard, preview) with bounded
 * repairs, and the guided builder's compile, which is the same loop without a model.
 */
export function createAgentService(deps: {
  db: Database;
  clock: Clock;
  audit: AuditService;
  engine: Pick<StudioEngine, 'listSources' | 'listTables' | 'run'>;
  /** The open report's text, as the caller may read it (a 404 otherwise). */
  reportText: (scope: StudioScope, key: string) => Promise<{ id: string; text: string }>;
  config: AgentConfig;
  /** Undefined without AGENT_BASE_URL: asking answers agent_not_configured. */
  model: ModelClient | undefined;
  log: FastifyBaseLogger;
}) {
  const { db, clock, audit, engine, config, model } = deps;
  const { compileAndPreview, check } = createAnswerChecks(engine);

  function tenantOf(scope: StudioScope): string {
    if (scope.tenantId === null) throw badRequest(agentMessages.noTenant);
    return scope.tenantId;
  }

  async function ownConversation(actor: Actor, scope: StudioScope, id: string): Promise<ConversationRow> {
    const row = await findConversation(db, { tenantId: tenantOf(scope), userId: actor.user.id }, id);
    if (!row) throw conversationNotFound();
    return row;
  }

  /** The conversation so far as chat turns: questions, and each answer's accepted JSON. */
  function history(rows: readonly MessageRow[]): ChatMessage[] {
    return rows.slice(-HISTORY_MESSAGES).map((row) => {
      if (row.role === 'user') return { role: 'user', content: row.text };
      const payload = row.payload as unknown as AnswerPayload;
      return { role: 'assistant', content: JSON.stringify(payload.answer ?? { kind: 'reply', text: row.text }) };
    });
  }

  async function checkBudget(tenantId: string): Promise<void> {
    if (config.tokensPerTenantPerDay === 0) return;
    const now = clock.now();
    if ((await tokensUsed(db, tenantId, dayOf(now))) >= config.tokensPerTenantPerDay) {
      throw new AppError('agent_budget_exhausted', agentMessages.budgetExhausted(config.tokensPerTenantPerDay), {
        'Retry-After': String(secondsToMidnight(now)),
      });
    }
  }

  return {
    status(allowed: boolean): AgentStatus {
      return { configured: model !== undefined, model: model?.model ?? null, allowed };
    },

    /** The guided builder: a plan picked by hand, compiled and previewed as a model's would be. */
    async compile(scope: StudioScope, body: AgentCompile, signal?: AbortSignal): Promise<AgentCompiled> {
      try {
        const { compiled, preview: result, block } = await compileAndPreview(scope, body.source, body.plan, signal);
        return { sql: compiled.sql, block, preview: result };
      } catch (error) {
        if (error instanceof PlanProblem)
          throw new AppError('validation_failed', [{ loc: ['body', 'plan'], msg: error.message, type: 'value_error' }]);
        throw error;
      }
    },

    async createConversation(actor: Actor, scope: StudioScope, title: string | undefined) {
      const now = clock.now();
      const row = await insertConversation(db, {
        tenantId: tenantOf(scope),
        userId: actor.user.id,
        title: title ?? DEFAULT_TITLE,
        createdAt: now,
        updatedAt: now,
      });
      return toSummary(row);
    },

    async listConversations(actor: Actor, scope: StudioScope, page: PaginationQuery): Promise<AgentConversations> {
      const rows = await listConversations(db, { tenantId: tenantOf(scope), userId: actor.user.id }, page);
      return { data: rows.data.map(toSummary), count: rows.count };
    },

    async getConversation(actor: Actor, scope: StudioScope, id: string): Promise<AgentConversation> {
      const row = await ownConversation(actor, scope, id);
      const messages = await listMessages(db, row.id);
      return { ...toSummary(row), messages: messages.map(toMessage) };
    },

    async deleteConversation(actor: Actor, scope: StudioScope, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await findConversation(tx, { tenantId: tenantOf(scope), userId: actor.user.id }, id);
        if (!row) throw conversationNotFound();
        await deleteConversation(tx, row.id);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.agentConversationDelete,
          targetType: AUDIT_TARGET_TYPES.agentConversation,
          targetId: row.id,
          before: { title: row.title, tenant_id: row.tenantId },
          after: null,
        });
      });
    },

    /**
     * Everything that can refuse a question before the model is asked, as an HTTP error: no model,
     * no tenant, not the caller's conversation, the budget spent, a report the caller cannot read.
     */
    async prepareAsk(actor: Actor, scope: StudioScope, conversationId: string, body: AgentAsk): Promise<PreparedAsk> {
      const conversation = await ownConversation(actor, scope, conversationId);
      if (!model) throw notConfigured();
      await checkBudget(conversation.tenantId);
      const report = body.report_id ? await deps.reportText(scope, body.report_id) : undefined;
      return { actor, scope, conversation, question: body.text, report };
    },

    /**
     * Asks the model and checks its answer, feeding each failure back at most AGENT_MAX_REPAIRS
     * times; the question and the accepted answer are saved together, with the audit entry. A
     * refusal saves nothing but the tokens spent and the audit entry, and throws `agent_refused`.
     */
    async answer(
      prepared: PreparedAsk,
      signal: AbortSignal,
      events: AskEvents = {},
    ): Promise<AgentMessage & { preview?: AgentPreview }> {
      const { actor, scope, conversation, question, report } = prepared;
      const client = model!;
      const tenantId = conversation.tenantId;
      const earlier = await listMessages(db, conversation.id);
      const grounded = await groundSources({
        engine,
        scope,
        question,
        samples: await samplesOn(db, tenantId),
        signal,
      });
      const schema = answerJsonSchema(grounded.sources);
      const messages = promptMessages(systemPrompt({ ...grounded, report }), history(earlier), question);
      const repairs: AnswerPayload['repairs'] = [];
      let tokens = 0;
      let accepted: Awaited<ReturnType<typeof check>> | undefined;
      for (let attempt = 0; attempt <= config.maxRepairs && !accepted; attempt += 1) {
        events.onStage?.(attempt === 0 ? 'asking' : 'repairing', attempt + 1);
        const reply = await client.complete({ messages, schema, signal, onDelta: events.onDelta });
        tokens += reply.tokens;
        await addTokens(db, tenantId, dayOf(clock.now()), reply.tokens);
        events.onStage?.('checking', attempt + 1);
        try {
          accepted = await check(scope, reply, signal);
        } catch (error) {
          if (!(error instanceof Rejected)) throw error;
          const problem = clip(error.message);
          repairs.push({ attempt: attempt + 1, problem });
          messages.push(
            { role: 'assistant', content: reply.content.slice(0, 4_000) },
            { role: 'user', content: `That answer was refused: ${problem} Answer again with one JSON object.` },
          );
        }
      }
      const now = clock.now();
      if (!accepted) {
        const why = repairs.at(-1)?.problem ?? 'no answer';
        await audit.record(db, actor, {
          action: AUDIT_ACTIONS.agentAnswer,
          targetType: AUDIT_TARGET_TYPES.agentConversation,
          targetId: conversation.id,
          before: null,
          after: { question, model: client.model, tokens, outcome: 'refused', repairs },
        });
        throw new AppError(
          'agent_refused',
          agentMessages.refused(
            repairs.length,
            repairs.map((repair) => `attempt ${repair.attempt}: ${repair.problem}`).join(' ') || why,
          ),
        );
      }
      const { answer, payload } = accepted;
      const text = answer.kind === 'reply' ? answer.text : answer.title;
      const saved = await db.transaction(async (tx) => {
        const rows = await appendMessages(tx, conversation.id, [
          { role: 'user', kind: 'question', text: question, reportId: report?.id ?? null, createdAt: now },
          {
            role: 'assistant',
            kind: answer.kind,
            text,
            payload: { ...payload, repairs },
            tokens,
            reportId: report?.id ?? null,
            createdAt: now,
          },
        ]);
        // The first question names an untitled conversation in the list.
        const retitled =
          conversation.title === DEFAULT_TITLE && earlier.length === 0 ? question.slice(0, 80) : undefined;
        await touchConversation(tx, conversation.id, now, retitled);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.agentAnswer,
          targetType: AUDIT_TARGET_TYPES.agentConversation,
          targetId: conversation.id,
          before: null,
          after: {
            question,
            model: client.model,
            tokens,
            outcome: answer.kind,
            source: payload.source ?? null,
            sql: payload.sql ?? null,
            repairs,
          },
        });
        return rows[1]!;
      });
      return { ...toMessage(saved), ...(accepted.preview ? { preview: accepted.preview } : {}) };
    },

    /** A page of an answer's block (a reopened conversation's table or chart), run as its preview was. */
    async runMessage(
      actor: Actor,
      scope: StudioScope,
      conversationId: string,
      messageId: string,
      run: AgentRun,
      signal?: AbortSignal,
    ): Promise<ReportRunResult> {
      const conversation = await ownConversation(actor, scope, conversationId);
      const row = await findMessage(db, conversation.id, messageId);
      if (!row) throw new AppError('conversation_not_found', agentMessages.messageNotFound);
      const payload = row.payload as unknown as AnswerPayload;
      if (!payload.block || !payload.sql || !payload.source) throw badRequest(agentMessages.noBlock);
      const table = payload.block.kind === 'table';
      return engine.run({
        scope,
        source: payload.source,
        sql: payload.sql,
        params: payload.values ?? {},
        shape: table ? 'page' : 'capped',
        ...(table ? { skip: run.skip, limit: run.limit ?? AGENT_PREVIEW_ROWS } : {}),
        ...(table && run.sort ? { sort: run.sort } : {}),
        ...(signal ? { signal } : {}),
      });
    },

    /** Whether an answer is the caller's in this tenant and has a block (a save marked "drafted with the agent"). */
    async ownsAnswerBlock(actor: Actor, scope: StudioScope, messageId: string): Promise<boolean> {
      if (scope.tenantId === null) return false;
      const row = await findOwnedAnswer(db, { tenantId: scope.tenantId, userId: actor.user.id }, messageId);
      return row !== undefined && (row.payload as unknown as AnswerPayload).block !== undefined;
    },

    async settings(scope: StudioScope): Promise<{ samples: boolean }> {
      return { samples: await samplesOn(db, tenantOf(scope)) };
    },

    async updateSettings(actor: Actor, scope: StudioScope, samples: boolean): Promise<{ samples: boolean }> {
      const tenantId = tenantOf(scope);
      await db.transaction(async (tx) => {
        const before = await samplesOn(tx, tenantId);
        await setSamples(tx, tenantId, samples, clock.now());
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.agentSettingsUpdate,
          targetType: AUDIT_TARGET_TYPES.tenant,
          targetId: tenantId,
          before: { samples: before },
          after: { samples },
        });
      });
      return { samples };
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
