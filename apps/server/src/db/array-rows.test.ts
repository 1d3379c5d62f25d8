import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import { prepareArrayRows } from './array-rows.js';
import { outbox } from './schema/index.js';

// Runs on PGlite, and on the PostgreSQL server when TEST_DATABASE_URL is set (CI runs both).
describe('prepareArrayRows', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.insert(outbox).values([
      { recipient: 'a@example.com', subject: 'first', textBody: 'x' },
      { recipient: 'b@example.com', subject: 'second', textBody: 'y' },
    ]);
  });
  afterAll(() => database.drop());

  it("answers the select's columns in order, typed by the driver, with placeholders filled per call", async () => {
    const query = database.db
      .select({ subject: outbox.subject, createdAt: outbox.createdAt, fixed: sql<number>`${41}::int + 1` })
      .from(outbox)
      .where(eq(outbox.recipient, sql.placeholder('recipient')));
    const run = prepareArrayRows<{ recipient: string }>(database.db, 'array_rows_test', query);

    const [first] = await run({ recipient: 'a@example.com' });
    expect(first).toEqual(['first', expect.any(Date), 42]);
    // Prepared once on a server connection, the statement answers later calls with their own values.
    expect(await run({ recipient: 'b@example.com' })).toEqual([['second', expect.any(Date), 42]]);
    expect(await run({ recipient: 'nobody@example.com' })).toEqual([]);
  });

  it("fills an insert's placeholders, which Drizzle wraps with their column's encoder", async () => {
    const query = database.db
      .insert(outbox)
      .values({
        recipient: sql.placeholder('recipient'),
        subject: sql.placeholder('subject'),
        textBody: 'fixed body',
        createdAt: sql`${sql.placeholder('createdAt')}::timestamptz`,
      })
      .returning({
        recipient: outbox.recipient,
        subject: outbox.subject,
        textBody: outbox.textBody,
        createdAt: outbox.createdAt,
      });
    const run = prepareArrayRows<{ recipient: string; subject: string; createdAt: string }>(
      database.db,
      'array_rows_insert_test',
      query,
    );

    for (const recipient of ['c@example.com', 'd@example.com']) {
      const rows = await run({ recipient, subject: `to ${recipient}`, createdAt: '2026-01-02T03:04:05.000Z' });
      expect(rows).toEqual([[recipient, `to ${recipient}`, 'fixed body', new Date('2026-01-02T03:04:05.000Z')]]);
    }
    const stored = await database.db
      .select({ subject: outbox.subject })
      .from(outbox)
      .where(eq(outbox.recipient, 'd@example.com'));
    expect(stored).toEqual([{ subject: 'to d@example.com' }]);
  });
});
