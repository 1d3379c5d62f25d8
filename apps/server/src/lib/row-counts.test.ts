import { readFileSync } from 'node:fs';
import { eq, sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestContext } from '../../test/harness.js';
import type { DbOrTx } from '../db/client.js';
import { contactSubmissions, tenants, transactions, users } from '../db/schema/index.js';
import { insertAuditEntry } from '../modules/audit/audit.repository.js';
import { insertTransaction } from '../modules/billing/transactions.repository.js';
import { insertSubmission } from '../modules/contact/contact.repository.js';
import { insertTenant } from '../modules/tenants/tenants.repository.js';
import { insertUser } from '../modules/users/users.repository.js';
import { COUNTED_GRAINS } from './row-counts.js';

/**
 * The counts lists answer from `row_counts` (decision 052) must be what count(*) would say, after
 * any mix of inserts, updates, deletes (cascades included), truncations, rollbacks and concurrent
 * writers. On a PostgreSQL server (TEST_DATABASE_URL) the concurrent cases really interleave over
 * the pool's connections; on PGlite they are serialised and must come out the same.
 */

async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  // Both drivers answer an object with the rows; Drizzle types it per driver.
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

interface Counted {
  grain: string;
  scope: string;
  n: number;
}

/** Every count row_counts keeps, and what counting each table says, in the same shape. */
async function countsKeptAndCounted(db: DbOrTx): Promise<{ kept: Counted[]; counted: Counted[] }> {
  const kept = await rows<Counted>(
    db,
    sql`select table_name || ':' || grain as grain, scope::text as scope, sum(n)::int as n from row_counts
        group by 1, 2 having sum(n) <> 0 order by 1, 2`,
  );
  const counted: Counted[] = [];
  for (const [table, grains] of Object.entries(COUNTED_GRAINS)) {
    for (const grain of grains) {
      const columns = grain === '' ? [] : grain.split(',');
      const scope =
        columns.length === 0
          ? sql.raw(`'{}'::jsonb`)
          : sql.raw(`jsonb_build_object(${columns.map((column) => `'${column}', "${column}"`).join(', ')})`);
      const groupBy = columns.length === 0 ? sql.raw('having count(*) > 0') : sql.raw('group by 2');
      counted.push(
        ...(await rows<Counted>(
          db,
          sql`select ${`${table}:${grain}`}::text as grain, (${scope})::text as scope, count(*)::int as n
              from ${sql.identifier(table)} ${groupBy}`,
        )),
      );
    }
  }
  const order = (a: Counted, b: Counted) => (a.grain + a.scope < b.grain + b.scope ? -1 : 1);
  return { kept: kept.sort(order), counted: counted.sort(order) };
}

async function expectExactCounts(db: DbOrTx): Promise<void> {
  const { kept, counted } = await countsKeptAndCounted(db);
  expect(kept).toEqual(counted);
}

const ROLLBACK = new Error('rolled back on purpose');

describe('row counts', () => {
  const { ctx, admin } = useTestContext();
  const db = () => ctx.database.db;
  let serial = 0;
  const next = () => (serial += 1);

  const newUser = (db: DbOrTx) =>
    insertUser(db, { email: `counted-${next()}-${Date.now()}@example.com`, hashedPassword: 'x', fullName: 'Counted' });
  const newTransaction = (db: DbOrTx, userId: string) =>
    insertTransaction(db, {
      userId,
      kind: 'renewal',
      amount: '9.99',
      currency: 'EUR',
      status: 'succeeded',
      provider: 'sandbox',
    });
  const newSubmission = (db: DbOrTx) =>
    insertSubmission(db, {
      name: 'Ada',
      email: 'ada@example.com',
      subject: `Question ${next()}`,
      message: 'How much is it?',
    });

  it('keeps exactly the grains lib/row-counts.ts declares, on every write that can change them', async () => {
    const triggers = await rows<{ table: string; definition: string }>(
      db(),
      sql`select c.relname as "table", pg_get_triggerdef(t.oid) as definition
          from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
          where p.proname = 'row_counts_apply' order by 1, 2`,
    );
    const declared = new Map<string, Set<string>>();
    for (const { table, definition } of triggers) {
      const event = /AFTER (INSERT|UPDATE|DELETE) ON/.exec(definition)?.[1];
      const args = /row_counts_apply\((.*)\)$/.exec(definition)?.[1] ?? '';
      const grains = [...args.matchAll(/'([^']*)'/g)].map((match) => match[1]);
      expect(grains, definition).toEqual(COUNTED_GRAINS[table]);
      expect(definition).toContain('FOR EACH STATEMENT');
      declared.set(table, (declared.get(table) ?? new Set()).add(event ?? '?'));
    }
    // Inserts and deletes change every count; updates only those by a column (the audit log is
    // append-only: the database refuses its updates and deletes).
    expect(Object.fromEntries([...declared].map(([table, events]) => [table, [...events].sort()]))).toEqual({
      audit_log: ['INSERT'],
      contact_submissions: ['DELETE', 'INSERT', 'UPDATE'],
      tenants: ['DELETE', 'INSERT', 'UPDATE'],
      transactions: ['DELETE', 'INSERT', 'UPDATE'],
      users: ['DELETE', 'INSERT'],
    });
    await expectExactCounts(db());
  });

  it('stays exact through inserts, updates between scopes, deletes, cascades and truncation', async () => {
    const owner = await newUser(db());
    const other = await newUser(db());
    for (let i = 0; i < 3; i += 1) await newTransaction(db(), owner.id);
    await newTransaction(db(), other.id);
    // One statement, many rows: counted once, in bulk.
    await db()
      .insert(transactions)
      .values(
        Array.from({ length: 5 }, () => ({
          userId: other.id,
          kind: 'renewal' as const,
          amount: '1.00',
          currency: 'EUR',
          status: 'pending' as const,
          provider: 'sandbox' as const,
        })),
      );
    const submissions = await Promise.all([newSubmission(db()), newSubmission(db()), newSubmission(db())]);
    const tenant = await insertTenant(db(), { name: `Counted tenant ${next()}` });
    await insertTenant(db(), { name: `Counted tenant ${next()}` });
    await insertAuditEntry(db(), { actorId: admin.id, action: 'user.create', targetType: 'user' });
    await insertAuditEntry(db(), { actorId: null, action: 'file.download', targetType: 'file' });
    await expectExactCounts(db());

    // Updates that move rows between scopes, and one that moves none.
    await db().update(contactSubmissions).set({ status: 'read' }).where(eq(contactSubmissions.id, submissions[0].id));
    await db().update(contactSubmissions).set({ status: 'spam' });
    await db().update(tenants).set({ status: 'inactive' }).where(eq(tenants.id, tenant.id));
    await db().update(transactions).set({ status: 'failed' }).where(eq(transactions.userId, other.id));
    await db().update(transactions).set({ userId: owner.id }).where(eq(transactions.status, 'failed'));
    await expectExactCounts(db());

    // Deletes, and a delete that cascades to the user's transactions.
    await db().delete(contactSubmissions).where(eq(contactSubmissions.id, submissions[1].id));
    await db().delete(tenants).where(eq(tenants.id, tenant.id));
    await db().delete(users).where(eq(users.id, owner.id));
    await expectExactCounts(db());
    const ownerScopes = await rows<{ n: number }>(
      db(),
      sql`select coalesce(sum(n), 0)::int as n from row_counts where scope ->> 'user_id' = ${owner.id}`,
    );
    expect(ownerScopes).toEqual([{ n: 0 }]);

    await db().execute(sql`truncate contact_submissions`);
    await expectExactCounts(db());
  });

  it('counts nothing of a transaction that rolls back', async () => {
    const before = await countsKeptAndCounted(db());
    await expect(
      db().transaction(async (tx) => {
        const user = await newUser(tx);
        await newTransaction(tx, user.id);
        await newSubmission(tx);
        await insertAuditEntry(tx, { actorId: user.id, action: 'user.update', targetType: 'user' });
        await expectExactCounts(tx);
        throw ROLLBACK;
      }),
    ).rejects.toBe(ROLLBACK);
    expect(await countsKeptAndCounted(db())).toEqual(before);
  });

  it('stays exact under concurrent writers, some of which roll back', async () => {
    const payer = await newUser(db());
    const writers = Array.from({ length: 20 }, (_, i) =>
      db()
        .transaction(async (tx) => {
          const user = await newUser(tx);
          await newTransaction(tx, i % 2 === 0 ? payer.id : user.id);
          await newSubmission(tx);
          await insertAuditEntry(tx, { actorId: admin.id, action: 'user.create', targetType: 'user' });
          if (i % 5 === 0) throw ROLLBACK;
        })
        .catch((error: unknown) => {
          if (error !== ROLLBACK) throw error;
        }),
    );
    await Promise.all(writers);
    await expectExactCounts(db());

    // Concurrent deletes, each cascading to transactions, beside concurrent inserts.
    const victims = await rows<{ id: string }>(
      db(),
      sql`select id from users where email like 'counted-%' and id <> ${payer.id} order by id limit 10`,
    );
    await Promise.all([
      ...victims.map(({ id }) => db().delete(users).where(eq(users.id, id))),
      ...Array.from({ length: 10 }, () => newTransaction(db(), payer.id)),
    ]);
    await expectExactCounts(db());
  });

  it('answers the exact count through the API under 20 concurrent creates and deletes', async () => {
    const tag = Date.now();
    const created = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/users/',
          headers: admin.headers,
          payload: { email: `parallel-${i}-${tag}@example.com`, password: 'parallel-password-1' },
        });
        expect(response.statusCode).toBe(201);
        return response.json<{ id: string }>().id;
      }),
    );
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/contact/',
          remoteAddress: `10.9.0.${i + 1}`,
          payload: { name: 'Ada', email: 'ada@example.com', subject: 'Parallel', message: 'Counted or not?' },
        }),
      ),
    );
    const list = async (url: string) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers: admin.headers });
      expect(response.statusCode).toBe(200);
      return response.json<{ count: number }>().count;
    };
    const countOf = async (query: SQL) => (await rows<{ n: number }>(db(), query))[0]!.n;

    expect(await list('/api/v1/users/?limit=1')).toBe(await countOf(sql`select count(*)::int as n from users`));
    expect(await list('/api/v1/contact/?limit=1')).toBe(
      await countOf(sql`select count(*)::int as n from contact_submissions`),
    );
    expect(await list('/api/v1/contact/?limit=1&status=new')).toBe(
      await countOf(sql`select count(*)::int as n from contact_submissions where status = 'new'`),
    );

    await Promise.all(
      created.slice(0, 10).map(async (id) => {
        const response = await ctx.app.inject({ method: 'DELETE', url: `/api/v1/users/${id}`, headers: admin.headers });
        expect(response.statusCode).toBe(204);
      }),
    );
    expect(await list('/api/v1/users/?limit=1')).toBe(await countOf(sql`select count(*)::int as n from users`));
    // The audit log's counts by each filter, and by two (which it counts through its indexes).
    const actor = admin.id.toUpperCase();
    expect(await list(`/api/v1/audit/?limit=1&actor_id=${actor}`)).toBe(
      await countOf(sql`select count(*)::int as n from audit_log where actor_id = ${admin.id}`),
    );
    expect(await list('/api/v1/audit/?limit=1&action=user.delete')).toBe(10);
    expect(await list(`/api/v1/audit/?limit=1&action=user.create&actor_id=${admin.id}`)).toBe(
      await countOf(
        sql`select count(*)::int as n from audit_log where action = 'user.create' and actor_id = ${admin.id}`,
      ),
    );
    expect(await list('/api/v1/audit/?limit=1')).toBe(await countOf(sql`select count(*)::int as n from audit_log`));
    await expectExactCounts(db());
  });

  it('counts the rows already there when the migration runs', async () => {
    const migration = readFileSync(new URL('../db/migrations/0011_row_count_triggers.sql', import.meta.url), 'utf8');
    const seed = migration.split('--> statement-breakpoint').at(-1)!;
    expect(seed).toContain('INSERT INTO "row_counts"');
    const before = await countsKeptAndCounted(db());
    expect(before.kept.length).toBeGreaterThan(0);
    await db().transaction(async (tx) => {
      await tx.execute(sql`delete from row_counts`);
      await tx.execute(sql.raw(seed));
    });
    expect(await countsKeptAndCounted(db())).toEqual(before);
  });
});
