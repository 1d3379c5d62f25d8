import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId, updatedAt } from './columns.js';
import { users } from './users.js';

export const tenants = pgTable(
  'tenants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    description: text('description'),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    // The database URL sealed with AES-256-GCM (the tenant id as associated data); never stored in clear.
    dburlSealed: text('dburl_sealed'),
    // The same URL with its password masked: what responses show, readable without the key.
    dburlMasked: text('dburl_masked'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('tenants_status_check', sql`${t.status} in ('active', 'inactive')`),
    check('tenants_dburl_pair_check', sql`(${t.dburlSealed} is null) = (${t.dburlMasked} is null)`),
  ],
);

/** Which users belong to which tenant; gone with either side. */
export const tenantMembers = pgTable(
  'tenant_members',
  {
    tenantId: ownerId('tenant_id', () => tenants.id),
    userId: ownerId('user_id', () => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), index('tenant_members_user_id_idx').on(t.userId)],
);
