import './zod-config.js';
import { z } from 'zod';
import { pageOf, PaginationQuerySchema } from './common.js';
import { STUDIO_SOURCE_KINDS } from './studio-sources.js';
import { ReportRunSchema, ReportRunResultSchema } from './studio-reports.js';
import { SharedBlockSchema } from './studio-sharing.js';
import {
  AGENT_AGGREGATES,
  AGENT_ALIAS,
  AGENT_CHARTS,
  AGENT_FILTER_OPS,
  AGENT_GRAINS,
  AGENT_IN_VALUES_MAX,
  AGENT_LIMIT_MAX,
  AGENT_PLAN_PARTS_MAX,
  AGENT_QUESTION_MAX,
  AGENT_TITLE_MAX,
} from './agent-constants.js';

/*
 * The Agent (issue 56, docs/decisions/061-the-agent.md): a question in plain words becomes a Studio
 * block that the server compiled, guarded and previewed itself. A model never writes what runs
 * unchecked: it picks a *plan* over the tenant's real names, which we compile to SQL, or proposes SQL
 * that goes through the same guard as a person's, or replies in words.
 */

export * from './agent-constants.js';

export const agentMessages = {
  notConfigured:
    'No model is configured: set AGENT_BASE_URL (and AGENT_MODEL) to an OpenAI-compatible server, then restart. The guided builder works without one.',
  unavailable: 'The model server did not answer in time or failed: try again in a moment.',
  budgetExhausted: (tokens: number) =>
    `This tenant has used its ${tokens} agent tokens for today: the budget comes back at midnight UTC.`,
  refused: (attempts: number, why: string) =>
    `The agent could not give a checked answer after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${why}`,
  conversationNotFound: 'Conversation not found',
  messageNotFound: 'Message not found',
  noTenant: 'Choose a tenant with the X-Tenant-ID header: the agent answers over one tenant’s sources',
  noBlock: 'This answer has no block to run',
  questionTooLong: `A question has at most ${AGENT_QUESTION_MAX} characters`,
} as const;

const NameSchema = z.string().min(1).max(200);
const AliasSchema = z.string().regex(AGENT_ALIAS, 'A result name is lowercase letters, digits and _');
const FilterScalarSchema = z.union([z.string().max(500), z.number(), z.boolean()]);

export const AgentMeasureSchema = z.strictObject({
  agg: z.enum(AGENT_AGGREGATES),
  /** null only for `count` (every row). */
  column: NameSchema.nullable(),
  as: AliasSchema,
});
export const AgentDimensionSchema = z.strictObject({
  column: NameSchema,
  /** A time column's grain; null: the value itself. */
  grain: z.enum(AGENT_GRAINS).nullable(),
});
export const AgentFilterSchema = z.strictObject({
  column: NameSchema,
  op: z.enum(AGENT_FILTER_OPS),
  /** A value; a list for `in`, `not_in` and `between` (two); null for `is_null` and `not_null`. */
  value: z.union([FilterScalarSchema, z.array(FilterScalarSchema).max(AGENT_IN_VALUES_MAX), z.null()]),
});
export const AgentSortSchema = z.strictObject({
  /** A measure's `as` or a dimension's column. */
  by: NameSchema,
  direction: z.enum(['asc', 'desc']),
});

/** What a plan says, whoever picked it (the model or a person in the guided builder). */
export const AgentPlanBodySchema = z.strictObject({
  title: z.string().trim().min(1).max(AGENT_TITLE_MAX),
  table: NameSchema,
  measures: z.array(AgentMeasureSchema).max(AGENT_PLAN_PARTS_MAX),
  dimensions: z.array(AgentDimensionSchema).max(AGENT_PLAN_PARTS_MAX),
  filters: z.array(AgentFilterSchema).max(AGENT_PLAN_PARTS_MAX),
  sort: z.array(AgentSortSchema).max(AGENT_PLAN_PARTS_MAX),
  limit: z.number().int().min(1).max(AGENT_LIMIT_MAX).nullable(),
  chart: z.enum(AGENT_CHARTS),
});
export type AgentPlanBody = z.infer<typeof AgentPlanBodySchema>;

export const AgentSourceSchema = z.enum(STUDIO_SOURCE_KINDS);

/** A model's answer: exactly one of these JSON objects (docs/decisions/061-the-agent.md). */
export const AgentPlanAnswerSchema = AgentPlanBodySchema.extend({
  kind: z.literal('plan'),
  source: AgentSourceSchema,
});
export type AgentPlanAnswer = z.infer<typeof AgentPlanAnswerSchema>;
export const AgentSqlAnswerSchema = z.strictObject({
  kind: z.literal('sql'),
  title: z.string().trim().min(1).max(AGENT_TITLE_MAX),
  source: AgentSourceSchema,
  sql: z.string().trim().min(1).max(20_000),
  chart: z.enum(AGENT_CHARTS),
  /** The column on the x axis (a chart), or null. */
  x: NameSchema.nullable().optional(),
  /** The column on the y axis, or a KPI's value; null: the first numeric column. */
  y: NameSchema.nullable().optional(),
});
export const AgentReplyAnswerSchema = z.strictObject({
  kind: z.literal('reply'),
  text: z.string().trim().min(1).max(4_000),
});
export const AgentModelAnswerSchema = z.discriminatedUnion('kind', [
  AgentPlanAnswerSchema,
  AgentSqlAnswerSchema,
  AgentReplyAnswerSchema,
]);
export type AgentModelAnswer = z.infer<typeof AgentModelAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// The API: /api/v1/agent.
// ---------------------------------------------------------------------------------------------

export const AgentStatusSchema = z.object({
  /** Whether a model server is set (AGENT_BASE_URL). */
  configured: z.boolean(),
  /** The model asked (AGENT_MODEL), or null when none is configured. */
  model: z.string().nullable(),
  /** Whether the caller holds `agent:use`. */
  allowed: z.boolean(),
});
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

export const AgentPreviewSchema = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())),
  /** A table: the rows of the whole result; a chart or KPI: the rows returned. */
  count: z.number().int(),
  /** The engine's time for the preview's query. */
  elapsed_ms: z.number(),
});
export type AgentPreview = z.infer<typeof AgentPreviewSchema>;

export const AgentBlockKindSchema = z.enum(['kpi', 'chart', 'table']);
/** A report parameter a block's SQL binds (a plan's filter value), with the value as its default. */
export const AgentBlockParamSchema = z.object({
  type: z.enum(['text', 'number', 'date', 'boolean']),
  default: z.union([z.string(), z.number(), z.boolean()]),
});
export type AgentBlockParam = z.infer<typeof AgentBlockParamSchema>;
export const AgentBlockSchema = z.object({
  /** The block as it goes into a report's `blocks:` list (one YAML list item). */
  yaml: z.string(),
  kind: AgentBlockKindSchema,
  /** The source its SQL runs on: it fits reports of that source. */
  source: AgentSourceSchema,
  /** The parameters its SQL names (`:name`), which the report must declare. */
  params: z.record(z.string(), AgentBlockParamSchema),
  /** A whole report of this one block (with its parameters): what "Add to a new report" saves. */
  report: z.string(),
});
export type AgentBlock = z.infer<typeof AgentBlockSchema>;

/** `POST /agent/plan/compile`: a plan picked by hand (the guided builder). */
export const AgentCompileSchema = z.object({ source: AgentSourceSchema, plan: AgentPlanBodySchema });
export type AgentCompile = z.infer<typeof AgentCompileSchema>;
export const AgentCompiledSchema = z.object({
  sql: z.string(),
  /** `drawn`: the block as a viewer draws it (its chart's Vega-Lite spec, its KPI's field), made by the server. */
  block: AgentBlockSchema.extend({ drawn: SharedBlockSchema }),
  preview: AgentPreviewSchema,
});
export type AgentCompiled = z.infer<typeof AgentCompiledSchema>;

/** One failed attempt the agent repaired: what the check said. */
export const AgentRepairSchema = z.object({ attempt: z.number().int(), problem: z.string() });

export const AGENT_MESSAGE_KINDS = ['question', 'plan', 'sql', 'reply'] as const;
export const AgentMessageSchema = z.object({
  id: z.uuid(),
  role: z.enum(['user', 'assistant']),
  /** `question` for the person's; `plan`, `sql` or `reply` for an answer. */
  kind: z.enum(AGENT_MESSAGE_KINDS),
  text: z.string(),
  plan: AgentPlanAnswerSchema.optional(),
  sql: z.string().optional(),
  block: AgentBlockSchema.optional(),
  preview: AgentPreviewSchema.optional(),
  repairs: z.array(AgentRepairSchema),
  /** Tokens the model used for this answer (prompt and completion, every attempt). */
  tokens: z.number().int(),
  /** The report the question was about, if any. */
  report_id: z.uuid().nullable(),
  created_at: z.iso.datetime(),
});
export type AgentMessage = z.infer<typeof AgentMessageSchema>;

export const AgentConversationSummarySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export const AgentConversationsSchema = pageOf(AgentConversationSummarySchema);
export type AgentConversations = z.infer<typeof AgentConversationsSchema>;
export const AgentConversationSchema = AgentConversationSummarySchema.extend({
  messages: z.array(AgentMessageSchema),
});
export type AgentConversation = z.infer<typeof AgentConversationSchema>;

export const AgentConversationCreateSchema = z.object({
  title: z.string().trim().min(1).max(AGENT_TITLE_MAX).optional(),
});
export const AgentConversationIdParamsSchema = z.object({ conversation_id: z.uuid() });
export const AgentMessageIdParamsSchema = z.object({ conversation_id: z.uuid(), message_id: z.uuid() });
export const AgentConversationListQuerySchema = PaginationQuerySchema;

export const AgentAskSchema = z.object({
  text: z.string().trim().min(1, 'Ask a question').max(AGENT_QUESTION_MAX, agentMessages.questionTooLong),
  /** The open report (the editor's panel): its YAML goes to the model with the question. */
  report_id: z.string().min(1).max(200).optional(),
});
export type AgentAsk = z.infer<typeof AgentAskSchema>;

/** `POST …/messages/{message_id}/run`: a page of an answer's block, as a report's run. */
export const AgentRunSchema = ReportRunSchema.omit({ block: true, params: true });
export type AgentRun = z.infer<typeof AgentRunSchema>;
export const AgentRunResultSchema = ReportRunResultSchema;

/**
 * The events of `Accept: text/event-stream` on `POST …/messages`: `delta` as the model's text arrives,
 * `stage` as the server checks it, then one `answer` (the message) or one `error` (`{ detail, code }`).
 */
export const AGENT_STAGES = ['asking', 'checking', 'repairing'] as const;
export type AgentStage = (typeof AGENT_STAGES)[number];
