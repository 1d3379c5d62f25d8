import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, ownerId, updatedAt } from './columns.js';
import { tenants } from './tenants.js';
import { users } from './users.js';

/** A person's conversation with the agent in one tenant (issue 56): only its owner sees it. */
export const agentConversations = pgTable(
  'agent_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: ownerId('tenant_id', () => tenants.id),
    userId: ownerId('user_id', () => users.id),
    title: text('title').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // A person's list in a tenant, newest first.
  (t) => [index('agent_conversations_owner_idx').on(t.tenantId, t.userId, t.updatedAt, t.id)],
);

/**
 * The questions and answers of a conversation, in order. An answer's plan, SQL, block and the
 * repairs it took are kept in `payload` (the API's shape); a preview's rows are not: they are run
 * again when the conversation is reopened.
 */
export const agentMessages = pgTable(
  'agent_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: ownerId('conversation_id', () => agentConversations.id),
    /** Its position in the conversation, from 1. */
    seq: integer('seq').notNull(),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    kind: text('kind', { enum: ['question', 'plan', 'sql', 'reply'] }).notNull(),
    text: text('text').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    tokens: integer('tokens').notNull().default(0),
    reportId: uuid('report_id'),
    createdAt: createdAt(),
  },
  (t) => [
    check('agent_messages_role_check', sql`${t.role} in ('user', 'assistant')`),
    check('agent_messages_kind_check', sql`${t.kind} in ('question', 'plan', 'sql', 'reply')`),
    index('agent_messages_conversation_idx').on(t.conversationId, t.seq),
  ],
);

/** Tokens a tenant's questions used per UTC day, counted against AGENT_TOKENS_PER_TENANT_PER_DAY. */
export const agentTokenUsage = pgTable(
  'agent_token_usage',
  {
    tenantId: ownerId('tenant_id', () => tenants.id),
    day: date('day', { mode: 'string' }).notNull(),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

/** A tenant's agent settings: whether sample values of its short text columns go to the model. */
export const agentTenantSettings = pgTable('agent_tenant_settings', {
  tenantId: ownerId('tenant_id', () => tenants.id).primaryKey(),
  samples: boolean('samples').notNull().default(true),
  updatedAt: updatedAt(),
});
