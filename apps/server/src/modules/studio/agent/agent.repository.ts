import { and, asc, desc, eq, exists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { agentConversations, agentMessages, agentTenantSettings, agentTokenUsage } from '../../../db/schema/index.js';
import { paginate, type Page } from '../../../lib/pagination.js';

export type ConversationRow = typeof agentConversations.$inferSelect;
export type MessageRow = typeof agentMessages.$inferSelect;
export type NewMessageRow = typeof agentMessages.$inferInsert;

/** The conversation `id` if it is `userId`'s in `tenantId`; anyone else's does not exist. */
export async function findConversation(
  db: DbOrTx,
  owner: { tenantId: string; userId: string },
  id: string,
): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(agentConversations)
    .where(
      and(
        eq(agentConversations.id, id),
        eq(agentConversations.tenantId, owner.tenantId),
        eq(agentConversations.userId, owner.userId),
      ),
    )
    .limit(1);
  return row;
}

/** A person's conversations in a tenant, the latest first. */
export function listConversations(
  db: DbOrTx,
  owner: { tenantId: string; userId: string },
  page: { skip: number; limit: number },
): Promise<Page<ConversationRow>> {
  return paginate(
    db,
    agentConversations,
    {
      match: [
        [agentConversations.tenantId, owner.tenantId],
        [agentConversations.userId, owner.userId],
      ],
      // Only conversations that hold an answered question: one whose first question was refused or
      // cancelled has nothing to reopen (it can still be read and asked again by its id).
      where: exists(
        db
          .select({ one: sql`1` })
          .from(agentMessages)
          .where(eq(agentMessages.conversationId, agentConversations.id)),
      ),
      orderBy: [desc(agentConversations.updatedAt), desc(agentConversations.id)],
    },
    page,
  );
}

export async function insertConversation(
  db: DbOrTx,
  row: typeof agentConversations.$inferInsert,
): Promise<ConversationRow> {
  const [inserted] = await db.insert(agentConversations).values(row).returning();
  return inserted!;
}

/** Marks a conversation as just used (and gives it a title when one is passed). */
export async function touchConversation(db: DbOrTx, id: string, at: Date, title?: string): Promise<void> {
  await db
    .update(agentConversations)
    .set({ updatedAt: at, ...(title !== undefined ? { title } : {}) })
    .where(eq(agentConversations.id, id));
}

export async function deleteConversation(db: DbOrTx, id: string): Promise<ConversationRow | undefined> {
  const [row] = await db.delete(agentConversations).where(eq(agentConversations.id, id)).returning();
  return row;
}

export function listMessages(db: DbOrTx, conversationId: string): Promise<MessageRow[]> {
  return db
    .select()
    .from(agentMessages)
    .where(eq(agentMessages.conversationId, conversationId))
    .orderBy(asc(agentMessages.seq));
}

export async function findMessage(db: DbOrTx, conversationId: string, id: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(agentMessages)
    .where(and(eq(agentMessages.conversationId, conversationId), eq(agentMessages.id, id)))
    .limit(1);
  return row;
}

/**
 * An answer's message by id, if it belongs to a conversation of `owner` (a save that says its block
 * was drafted with the agent names one).
 */
export async function findOwnedAnswer(
  db: DbOrTx,
  owner: { tenantId: string; userId: string },
  messageId: string,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .select({ message: agentMessages })
    .from(agentMessages)
    .innerJoin(agentConversations, eq(agentConversations.id, agentMessages.conversationId))
    .where(
      and(
        eq(agentMessages.id, messageId),
        eq(agentMessages.role, 'assistant'),
        eq(agentConversations.tenantId, owner.tenantId),
        eq(agentConversations.userId, owner.userId),
      ),
    )
    .limit(1);
  return row?.message;
}

/** Adds messages at the end of a conversation (its next positions, taken under the conversation's row lock). */
export async function appendMessages(
  tx: DbOrTx,
  conversationId: string,
  rows: Omit<NewMessageRow, 'conversationId' | 'seq'>[],
): Promise<MessageRow[]> {
  await tx.execute(
    sql`SELECT 1 FROM ${agentConversations} WHERE ${agentConversations.id} = ${conversationId} FOR UPDATE`,
  );
  const [last] = await tx
    .select({ seq: agentMessages.seq })
    .from(agentMessages)
    .where(eq(agentMessages.conversationId, conversationId))
    .orderBy(desc(agentMessages.seq))
    .limit(1);
  const first = (last?.seq ?? 0) + 1;
  return tx
    .insert(agentMessages)
    .values(rows.map((row, index) => ({ ...row, conversationId, seq: first + index })))
    .returning();
}

/** Tokens the tenant's questions used on `day` (YYYY-MM-DD, UTC). */
export async function tokensUsed(db: DbOrTx, tenantId: string, day: string): Promise<number> {
  const [row] = await db
    .select({ tokens: agentTokenUsage.tokens })
    .from(agentTokenUsage)
    .where(and(eq(agentTokenUsage.tenantId, tenantId), eq(agentTokenUsage.day, day)))
    .limit(1);
  return row?.tokens ?? 0;
}

/** Counts `tokens` more for the tenant on `day`, in one statement (instances may count at once). */
export async function addTokens(db: DbOrTx, tenantId: string, day: string, tokens: number): Promise<void> {
  await db
    .insert(agentTokenUsage)
    .values({ tenantId, day, tokens })
    .onConflictDoUpdate({
      target: [agentTokenUsage.tenantId, agentTokenUsage.day],
      set: { tokens: sql`${agentTokenUsage.tokens} + ${tokens}` },
    });
}

/** Whether sample values of the tenant's short text columns go to the model (on unless turned off). */
export async function samplesOn(db: DbOrTx, tenantId: string): Promise<boolean> {
  const [row] = await db
    .select({ samples: agentTenantSettings.samples })
    .from(agentTenantSettings)
    .where(eq(agentTenantSettings.tenantId, tenantId))
    .limit(1);
  return row?.samples ?? true;
}

export async function setSamples(db: DbOrTx, tenantId: string, samples: boolean, at: Date): Promise<void> {
  await db
    .insert(agentTenantSettings)
    .values({ tenantId, samples, updatedAt: at })
    .onConflictDoUpdate({ target: agentTenantSettings.tenantId, set: { samples, updatedAt: at } });
}
