import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/harness.js';
import { users } from './db/schema/index.js';
import { seedFirstSuperuser } from './seed.js';

describe('first superuser', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('is created once when several instances start at once on a new database', async () => {
    const config = {
      ...ctx.config,
      firstSuperuser: 'first-admin@example.com',
      firstSuperuserPassword: 'a-real-password',
    };
    await Promise.all([1, 2, 3].map(() => seedFirstSuperuser(ctx.database.db, config, ctx.app.log)));
    const rows = await ctx.database.db.select().from(users).where(eq(users.email, config.firstSuperuser));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.isSuperuser).toBe(true);
    // Its address is the operator's own choice: it counts as verified (decision 029).
    expect(rows[0]!.emailVerifiedAt).toBeInstanceOf(Date);
  });
});
