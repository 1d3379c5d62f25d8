import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ownerId, timestamptz, updatedAt } from './columns.js';
import { tenants } from './tenants.js';
import { users } from './users.js';

/**
 * An OpenID Connect identity provider people of some e-mail domains sign in with (SSO-1). The client
 * secret is sealed with AES-256-GCM (the connection id as associated data), like tenant database
 * URLs; it is never stored in clear nor answered.
 */
export const ssoConnections = pgTable('sso_connections', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecretSealed: text('client_secret_sealed').notNull(),
  // Null: a global connection. Accounts it creates join this tenant; gone with the tenant.
  tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
  allowPasswordRecovery: boolean('allow_password_recovery').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Which connection serves an e-mail domain: one at most, so the domain alone picks it. */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text('domain').primaryKey(),
    connectionId: ownerId('connection_id', () => ssoConnections.id),
  },
  (t) => [
    check('sso_domains_lower_check', sql`${t.domain} = lower(${t.domain})`),
    index('sso_domains_connection_id_idx').on(t.connectionId),
  ],
);

/**
 * A person at a provider (its `sub`) and the account they sign in to. `createdAccount`: the account
 * was made by this sign-in (SSO-6: no password recovery unless the connection allows it).
 */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    connectionId: ownerId('connection_id', () => ssoConnections.id),
    subject: text('subject').notNull(),
    userId: ownerId('user_id', () => users.id),
    createdAccount: boolean('created_account').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.subject] }), index('sso_identities_user_id_idx').on(t.userId)],
);

/**
 * A sign-in under way at a provider: found by the digest of its `state`, bound to the browser that
 * started it by the digest of a cookie, used once.
 */
export const ssoFlows = pgTable(
  'sso_flows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stateHash: text('state_hash').notNull().unique(),
    browserHash: text('browser_hash').notNull(),
    connectionId: ownerId('connection_id', () => ssoConnections.id),
    nonce: text('nonce').notNull(),
    // Sealed like the client secret (the flow id as associated data).
    codeVerifierSealed: text('code_verifier_sealed').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('sso_flows_expires_at_idx').on(t.expiresAt)],
);

/**
 * The one-time code the callback hands the web app in a URL fragment (never the access token):
 * `session` is exchanged for a session, `link` waits for the existing account's password (SSO-5).
 */
export const ssoHandoffs = pgTable(
  'sso_handoffs',
  {
    codeHash: text('code_hash').primaryKey(),
    kind: text('kind', { enum: ['session', 'link'] }).notNull(),
    userId: ownerId('user_id', () => users.id),
    connectionId: ownerId('connection_id', () => ssoConnections.id),
    subject: text('subject').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    check('sso_handoffs_kind_check', sql`${t.kind} in ('session', 'link')`),
    index('sso_handoffs_expires_at_idx').on(t.expiresAt),
  ],
);
