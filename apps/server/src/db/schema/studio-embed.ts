import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ownerId, timestamptz, updatedAt } from './columns.js';
import { tenants } from './tenants.js';

/**
 * A tenant's embedding (issue 58): the origins allowed to frame its reports, and the HS256 secret its
 * own server signs embed tokens with, sealed (the server needs it back to check a signature).
 */
export const embedSettings = pgTable('embed_settings', {
  tenantId: ownerId('tenant_id', () => tenants.id).primaryKey(),
  origins: jsonb('origins').$type<string[]>().notNull().default([]),
  secretSealed: text('secret_sealed'),
  secretCreatedAt: timestamptz('secret_created_at'),
  updatedAt: updatedAt(),
});
