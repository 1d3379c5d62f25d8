import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { PaginationQuery } from '@dataplatform/contract';
import type { DbOrTx } from '../../db/client.js';
import {
  ssoConnections,
  ssoDomains,
  ssoFlows,
  ssoHandoffs,
  ssoIdentities,
  tenantMembers,
  tenants,
  users,
} from '../../db/schema/index.js';
import { paginate, type Page } from '../../lib/pagination.js';

export type SsoConnectionRow = typeof ssoConnections.$inferSelect;
export type SsoConnectionWithDomains = SsoConnectionRow & { domains: string[] };
export type SsoFlowRow = typeof ssoFlows.$inferSelect;
export type SsoHandoffRow = typeof ssoHandoffs.$inferSelect;

async function domainsOf(db: DbOrTx, connectionIds: string[]): Promise<Map<string, string[]>> {
  const byConnection = new Map<string, string[]>();
  if (connectionIds.length === 0) return byConnection;
  const rows = await db
    .select()
    .from(ssoDomains)
    .where(inArray(ssoDomains.connectionId, connectionIds))
    .orderBy(asc(ssoDomains.domain));
  for (const row of rows)
    byConnection.set(row.connectionId, [...(byConnection.get(row.connectionId) ?? []), row.domain]);
  return byConnection;
}

export async function listConnections(db: DbOrTx, page: PaginationQuery): Promise<Page<SsoConnectionWithDomains>> {
  const found = await paginate(
    db,
    ssoConnections,
    { orderBy: [asc(ssoConnections.name), asc(ssoConnections.id)] },
    page,
  );
  const domains = await domainsOf(
    db,
    found.data.map((row) => row.id),
  );
  return { data: found.data.map((row) => ({ ...row, domains: domains.get(row.id) ?? [] })), count: found.count };
}

export async function findConnection(db: DbOrTx, id: string): Promise<SsoConnectionWithDomains | undefined> {
  const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.id, id)).limit(1);
  if (!row) return undefined;
  const domains = await domainsOf(db, [row.id]);
  return { ...row, domains: domains.get(row.id) ?? [] };
}

export async function findConnectionByDomain(db: DbOrTx, domain: string): Promise<SsoConnectionRow | undefined> {
  const [row] = await db
    .select({ connection: ssoConnections })
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.id, ssoDomains.connectionId))
    .where(eq(ssoDomains.domain, domain))
    .limit(1);
  return row?.connection;
}

export async function insertConnection(
  db: DbOrTx,
  values: typeof ssoConnections.$inferInsert,
): Promise<SsoConnectionRow> {
  const [row] = await db.insert(ssoConnections).values(values).returning();
  return row!;
}

export async function updateConnection(
  db: DbOrTx,
  id: string,
  values: Partial<Omit<typeof ssoConnections.$inferInsert, 'id' | 'createdAt'>>,
): Promise<void> {
  await db.update(ssoConnections).set(values).where(eq(ssoConnections.id, id));
}

/** Replaces the connection's domains; a domain another connection holds fails the unique key. */
export async function replaceDomains(db: DbOrTx, connectionId: string, domains: string[]): Promise<void> {
  await db.delete(ssoDomains).where(eq(ssoDomains.connectionId, connectionId));
  if (domains.length > 0) await db.insert(ssoDomains).values(domains.map((domain) => ({ domain, connectionId })));
}

export async function domainsTakenElsewhere(db: DbOrTx, domains: string[], connectionId: string | null) {
  if (domains.length === 0) return [];
  const rows = await db.select().from(ssoDomains).where(inArray(ssoDomains.domain, domains));
  return rows.filter((row) => row.connectionId !== connectionId).map((row) => row.domain);
}

export async function deleteConnection(db: DbOrTx, id: string): Promise<void> {
  await db.delete(ssoConnections).where(eq(ssoConnections.id, id));
}

export async function tenantExists(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, id)).limit(1);
  return row !== undefined;
}

export async function addTenantMember(db: DbOrTx, tenantId: string, userId: string): Promise<void> {
  await db.insert(tenantMembers).values({ tenantId, userId }).onConflictDoNothing();
}

export async function insertSsoUser(
  db: DbOrTx,
  values: { email: string; hashedPassword: string; fullName: string | null; emailVerifiedAt: Date },
) {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function findIdentity(db: DbOrTx, connectionId: string, subject: string) {
  const [row] = await db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.connectionId, connectionId), eq(ssoIdentities.subject, subject)))
    .limit(1);
  return row;
}

export async function insertIdentity(db: DbOrTx, values: typeof ssoIdentities.$inferInsert): Promise<void> {
  await db.insert(ssoIdentities).values(values).onConflictDoNothing();
}

/**
 * Whether password recovery is closed to the user: an account made by a sign-in through a
 * connection that does not allow recovery (SSO-6).
 */
export async function isRecoveryClosed(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: ssoIdentities.userId })
    .from(ssoIdentities)
    .innerJoin(ssoConnections, eq(ssoConnections.id, ssoIdentities.connectionId))
    .where(
      and(
        eq(ssoIdentities.userId, userId),
        eq(ssoIdentities.createdAccount, true),
        eq(ssoConnections.allowPasswordRecovery, false),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function insertFlow(db: DbOrTx, values: typeof ssoFlows.$inferInsert): Promise<void> {
  await db.insert(ssoFlows).values(values);
}

/** Takes the live flow of `stateHash` away (used once, whatever comes of it). */
export async function takeFlow(db: DbOrTx, stateHash: string, now: Date): Promise<SsoFlowRow | undefined> {
  const [row] = await db.delete(ssoFlows).where(eq(ssoFlows.stateHash, stateHash)).returning();
  return row && row.expiresAt > now ? row : undefined;
}

export async function insertHandoff(db: DbOrTx, values: typeof ssoHandoffs.$inferInsert): Promise<void> {
  await db.insert(ssoHandoffs).values(values);
}

export async function findLiveHandoff(db: DbOrTx, codeHash: string, now: Date): Promise<SsoHandoffRow | undefined> {
  const [row] = await db
    .select()
    .from(ssoHandoffs)
    .where(and(eq(ssoHandoffs.codeHash, codeHash), gt(ssoHandoffs.expiresAt, now)))
    .limit(1);
  return row;
}

/** Deletes the handoff; false when another request took it first. */
export async function takeHandoff(db: DbOrTx, codeHash: string): Promise<boolean> {
  const rows = await db.delete(ssoHandoffs).where(eq(ssoHandoffs.codeHash, codeHash)).returning();
  return rows.length > 0;
}

export async function countFailedLink(db: DbOrTx, codeHash: string): Promise<number> {
  const [row] = await db
    .update(ssoHandoffs)
    .set({ failedAttempts: sql`${ssoHandoffs.failedAttempts} + 1` })
    .where(eq(ssoHandoffs.codeHash, codeHash))
    .returning({ failedAttempts: ssoHandoffs.failedAttempts });
  return row?.failedAttempts ?? Number.POSITIVE_INFINITY;
}

/** Flows and handoffs past their time: nothing can use them any more. */
export async function deleteExpired(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(ssoFlows).where(lte(ssoFlows.expiresAt, now));
  await db.delete(ssoHandoffs).where(lte(ssoHandoffs.expiresAt, now));
}
