import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, ownerId, timestamptz, updatedAt } from './columns.js';
import { roles } from './authz.js';
import { users } from './users.js';

/** Money columns: exact decimals, read by Drizzle as strings and never as floats. */
const money = (name: string) => numeric(name, { precision: 12, scale: 2 });

export const plans = pgTable(
  'plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    price: money('price').notNull(),
    currency: text('currency').notNull(),
    billingPeriod: text('billing_period', { enum: ['monthly', 'annual'] }).notNull(),
    features: jsonb('features').$type<string[]>().notNull().default([]),
    isActive: boolean('is_active').notNull().default(true),
    providerProductId: text('provider_product_id'),
    providerPriceId: text('provider_price_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('plans_price_positive', sql`${t.price} > 0`)],
);

/** The roles a plan grants its subscribers while they pay (decision 046). */
export const planRoles = pgTable(
  'plan_roles',
  {
    planId: ownerId('plan_id', () => plans.id),
    roleId: ownerId('role_id', () => roles.id),
  },
  (t) => [primaryKey({ columns: [t.planId, t.roleId] }), index('plan_roles_role_idx').on(t.roleId)],
);

/** The provider's customer for a user, one per provider (switching provider starts afresh). */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    userId: ownerId('user_id', () => users.id),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    providerCustomerId: text('provider_customer_id').notNull().unique(),
    /**
     * Set while a charge of this customer is in flight (subscribe): a second one waits for it to
     * end, on any instance. A lease rather than a lock, so a crashed instance cannot block for good.
     */
    chargeLeaseUntil: timestamptz('charge_lease_until'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/** A saved card: what the provider told us about it, never the number. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId('user_id', () => users.id),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    providerPaymentMethodId: text('provider_payment_method_id').notNull().unique(),
    cardType: text('card_type').notNull(),
    lastFour: text('last_four').notNull(),
    expiryMonth: integer('expiry_month').notNull(),
    expiryYear: integer('expiry_year').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    /** `created` of the newest provider event applied to this row (out-of-order webhooks). */
    providerUpdatedAt: timestamptz('provider_updated_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('payment_methods_user_idx').on(t.userId),
    uniqueIndex('payment_methods_one_default_idx')
      .on(t.userId, t.provider)
      .where(sql`${t.isDefault}`),
  ],
);

export const SUBSCRIPTION_LIVE_STATUSES = ['active', 'past_due'] as const;

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId('user_id', () => users.id),
    // Null only once a plan with ended subscriptions is deleted; the check keeps live ones on a plan.
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['active', 'past_due', 'canceled'] }).notNull(),
    currentPeriodStart: timestamptz('current_period_start').notNull(),
    currentPeriodEnd: timestamptz('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamptz('canceled_at'),
    /** Failed renewal attempts in the current period; reset by a successful charge. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at'),
    /** A renewal worker's claim: another instance leaves the row alone until `claimExpiresAt`. */
    claimId: uuid('claim_id'),
    claimExpiresAt: timestamptz('claim_expires_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_one_live_idx')
      .on(t.userId)
      .where(sql`${t.status} in ('active', 'past_due')`),
    index('subscriptions_due_idx').on(t.status, t.nextAttemptAt),
    index('subscriptions_plan_idx').on(t.planId),
    check('subscriptions_live_has_plan', sql`${t.status} = 'canceled' or ${t.planId} is not null`),
  ],
);

export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId('user_id', () => users.id),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['subscribe', 'renewal', 'payment_intent'] }).notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['succeeded', 'pending', 'failed'] }).notNull(),
    errorMessage: text('error_message'),
    description: text('description'),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    /** The provider's payment (intent) id; a payment is recorded once. */
    providerPaymentId: text('provider_payment_id').unique(),
    /** `created` of the newest provider event applied (out-of-order webhooks). */
    providerUpdatedAt: timestamptz('provider_updated_at'),
    createdAt: createdAt(),
  },
  (t) => [index('transactions_user_created_idx').on(t.userId, t.createdAt, t.id)],
);

/**
 * Roles a user holds because a subscription is paid for, beside the roles assigned by hand
 * (`user_roles`); what a user holds is the union of the two (decision 046). One row per role and
 * subscription: written and removed only by billing, in the transaction that changes the subscription.
 */
export const planRoleGrants = pgTable(
  'plan_role_grants',
  {
    subscriptionId: ownerId('subscription_id', () => subscriptions.id),
    roleId: ownerId('role_id', () => roles.id),
    userId: ownerId('user_id', () => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.roleId] }),
    index('plan_role_grants_user_role_idx').on(t.userId, t.roleId),
    index('plan_role_grants_role_idx').on(t.roleId),
  ],
);

/**
 * The sandbox's test clocks: how far one customer's billing time runs ahead of the real clock
 * (`POST /subscriptions/sandbox/advance`, never with Stripe or in production).
 */
export const sandboxClocks = pgTable('sandbox_clocks', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  offsetSeconds: bigint('offset_seconds', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

/** Every provider event applied, by id, written in the same transaction as its effect. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
  type: text('type').notNull(),
  providerCreatedAt: timestamptz('provider_created_at').notNull(),
  receivedAt: timestamptz('received_at').notNull().defaultNow(),
});

/**
 * The offline sandbox processor's own books (what Stripe would hold): cards by brand, last four and
 * expiry plus the test outcome their number stands for, and every payment it was asked for.
 */
export const sandboxPaymentMethods = pgTable('sandbox_payment_methods', {
  id: text('id').primaryKey(),
  brand: text('brand').notNull(),
  lastFour: text('last_four').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  outcome: text('outcome').notNull(),
  customerId: text('customer_id'),
  createdAt: createdAt(),
});

export const sandboxPaymentIntents = pgTable(
  'sandbox_payment_intents',
  {
    id: text('id').primaryKey(),
    customerId: text('customer_id').notNull(),
    paymentMethodId: text('payment_method_id'),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    errorMessage: text('error_message'),
    metadata: jsonb('metadata').$type<Record<string, string>>().notNull().default({}),
    idempotencyKey: text('idempotency_key').unique(),
    clientSecret: text('client_secret').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sandbox_payment_intents_customer_idx').on(t.customerId)],
);
