import './zod-config.js';
import { z } from 'zod';
import {
  BILLING_PERIODS,
  SUBSCRIPTION_STATUSES,
  TRANSACTION_STATUSES,
  PAYMENT_PROVIDERS,
  PLAN_NAME_MAX,
  PLAN_DESCRIPTION_MAX,
  PLAN_FEATURES_MAX,
  PLAN_FEATURE_MAX_LENGTH,
  PLAN_ROLES_MAX,
  SANDBOX_ADVANCE_MAX_SECONDS,
  PRICE_PATTERN,
  billingMessages,
} from './billing-constants.js';
import { pageOf } from './common.js';

export * from './billing-constants.js';

export const BillingPeriodSchema = z.enum(BILLING_PERIODS, { error: 'Billing period must be monthly or annual' });

/**
 * A price as the API accepts it: a decimal string ("19.99"), or a JSON number whose shortest
 * representation is such a string (19.99). It stays a string: the server never does float maths.
 */
export const PriceSchema = z
  .union([z.string(), z.number()], { error: billingMessages.priceInvalid })
  .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
  .refine((value) => PRICE_PATTERN.test(value), billingMessages.priceInvalid)
  .refine((value) => /[1-9]/.test(value), billingMessages.priceNotPositive);

const PlanNameSchema = z
  .string({ error: billingMessages.nameRequired })
  .trim()
  .min(1, billingMessages.nameRequired)
  .max(PLAN_NAME_MAX, `Plan name must be at most ${PLAN_NAME_MAX} characters`);
const PlanDescriptionSchema = z
  .string({ error: billingMessages.descriptionRequired })
  .trim()
  .min(1, billingMessages.descriptionRequired)
  .max(PLAN_DESCRIPTION_MAX, `Plan description must be at most ${PLAN_DESCRIPTION_MAX} characters`);
/** Features arrive one per line in the form; blank entries are dropped, the rest trimmed. */
const FeaturesSchema = z
  .array(z.string({ error: billingMessages.featureInvalid }).max(PLAN_FEATURE_MAX_LENGTH), {
    error: 'Features must be a list of strings',
  })
  .transform((items) => items.map((item) => item.trim()).filter((item) => item !== ''))
  .refine((items) => items.length <= PLAN_FEATURES_MAX, `A plan has at most ${PLAN_FEATURES_MAX} features`);

/** The roles a plan grants while paid for (decision 046); repeated ids count once. */
const PlanRoleIdsSchema = z
  .array(z.uuid({ error: 'Invalid role id' }), { error: 'role_ids must be a list of role ids' })
  .max(PLAN_ROLES_MAX, billingMessages.planRolesTooMany);

/** `POST /subscriptions/plans` */
export const PlanCreateSchema = z.object({
  name: PlanNameSchema,
  description: PlanDescriptionSchema,
  price: PriceSchema,
  billing_period: BillingPeriodSchema,
  features: FeaturesSchema,
  is_active: z.boolean().default(true),
  role_ids: PlanRoleIdsSchema.default([]),
});
export type PlanCreate = z.infer<typeof PlanCreateSchema>;

/** `PATCH /subscriptions/plans/{plan_id}`: any subset of the fields. */
export const PlanUpdateSchema = z.object({
  name: PlanNameSchema.optional(),
  description: PlanDescriptionSchema.optional(),
  price: PriceSchema.optional(),
  billing_period: BillingPeriodSchema.optional(),
  features: FeaturesSchema.optional(),
  is_active: z.boolean().optional(),
  role_ids: PlanRoleIdsSchema.optional(),
});
export type PlanUpdate = z.infer<typeof PlanUpdateSchema>;

export const PlanSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  /** Decimal string, two places: "19.99". */
  price: z.string(),
  currency: z.string(),
  billing_period: BillingPeriodSchema,
  features: z.array(z.string()),
  is_active: z.boolean(),
  /** The roles a subscriber holds while the plan is paid for, by id and (for the plan card) by name. */
  role_ids: z.array(z.uuid()),
  roles: z.array(z.object({ id: z.uuid(), name: z.string() })),
  /** The provider's price for the current amount, once `update-stripe-price` has made one. */
  provider_price_id: z.string().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type Plan = z.infer<typeof PlanSchema>;
export const PlansSchema = pageOf(PlanSchema);
export type Plans = z.infer<typeof PlansSchema>;

export const PlanIdParamsSchema = z.object({ plan_id: z.uuid({ error: 'Invalid plan id' }) });

/** `POST /subscriptions/payment-methods`: the card itself stays with the provider. */
export const PaymentMethodCreateSchema = z.object({
  provider_payment_method_id: z
    .string({ error: 'provider_payment_method_id is required' })
    .trim()
    .min(1, 'provider_payment_method_id is required')
    .max(255)
    .regex(/^[A-Za-z0-9_]+$/, 'provider_payment_method_id is not a payment method id'),
  is_default: z.boolean().default(false),
});
export type PaymentMethodCreate = z.infer<typeof PaymentMethodCreateSchema>;

export const PaymentMethodSchema = z.object({
  id: z.uuid(),
  provider_payment_method_id: z.string(),
  /** Brand as the provider names it ("visa"); the web app shows it upper-cased. */
  card_type: z.string(),
  last_four: z.string(),
  expiry_month: z.number().int(),
  expiry_year: z.number().int(),
  is_default: z.boolean(),
  created_at: z.iso.datetime(),
});
export type PaymentMethod = z.infer<typeof PaymentMethodSchema>;
export const PaymentMethodsSchema = pageOf(PaymentMethodSchema);
export type PaymentMethods = z.infer<typeof PaymentMethodsSchema>;

export const PaymentMethodIdParamsSchema = z.object({
  payment_method_id: z.uuid({ error: 'Invalid payment method id' }),
});

const MetadataValueSchema = z.union([z.string().max(500), z.number(), z.boolean()]);

/** `POST /subscriptions/subscribe/{plan_id}` */
export const SubscribeSchema = z.object({
  /** Our payment method id, or the provider's `pm_…` id of one of the caller's saved cards. */
  payment_method_id: z
    .string({ error: billingMessages.selectPaymentMethod })
    .trim()
    .min(1, billingMessages.selectPaymentMethod)
    .max(255),
  plan_id: z.uuid({ error: 'Invalid plan id' }).optional(),
  /** Passed to the provider as metadata on the charge; never overrides the server's own keys. */
  provider_metadata: z
    .record(z.string().max(40), MetadataValueSchema)
    .refine((value) => Object.keys(value).length <= 20, 'At most 20 metadata keys')
    .nullish(),
});
export type Subscribe = z.infer<typeof SubscribeSchema>;

export const SubscriptionSchema = z.object({
  id: z.uuid(),
  plan: PlanSchema,
  status: z.enum(SUBSCRIPTION_STATUSES),
  current_period_start: z.iso.datetime(),
  current_period_end: z.iso.datetime(),
  cancel_at_period_end: z.boolean(),
  canceled_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;
/** `GET /subscriptions/subscription`: the live subscription, or null. */
export const CurrentSubscriptionSchema = SubscriptionSchema.nullable();

export const TransactionSchema = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime(),
  /** Decimal string, two places. */
  amount: z.string(),
  currency: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  error_message: z.string().nullable(),
  /** What was paid for, for the Details column: "Pro (monthly)". */
  description: z.string().nullable(),
});
export type Transaction = z.infer<typeof TransactionSchema>;
export const TransactionsSchema = pageOf(TransactionSchema);
export type Transactions = z.infer<typeof TransactionsSchema>;

/** `POST /subscriptions/payment-intent`: a payment for a plan's amount, confirmed by the client. */
export const PaymentIntentCreateSchema = z.object({ plan_id: z.uuid({ error: 'Invalid plan id' }) });
export type PaymentIntentCreate = z.infer<typeof PaymentIntentCreateSchema>;

export const PaymentIntentSchema = z.object({
  id: z.string(),
  client_secret: z.string(),
  amount: z.string(),
  currency: z.string(),
  status: z.string(),
  transaction_id: z.uuid(),
});
export type PaymentIntent = z.infer<typeof PaymentIntentSchema>;

/** `GET /subscriptions/config`: which provider is live, for the web app's card field. */
export const BillingConfigSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  publishable_key: z.string().nullable(),
  currency: z.string(),
  /** Whether `POST /subscriptions/sandbox/advance` exists: the sandbox, outside production. */
  sandbox_clock: z.boolean(),
});
export type BillingConfig = z.infer<typeof BillingConfigSchema>;

/**
 * `POST /subscriptions/sandbox/payment-methods`: stands in for the provider's browser SDK when the
 * sandbox is live. The number and CVC are checked and dropped; only brand, last four and expiry stay.
 */
export const SandboxCardSchema = z.object({
  number: z
    .string({ error: billingMessages.cardNumberInvalid })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .refine((value) => /^\d{12,19}$/.test(value), billingMessages.cardNumberInvalid),
  // JSON numbers only, as the OpenAPI document says: no coercion of true, "5" or [[1]].
  exp_month: z
    .number({ error: billingMessages.cardExpMonthInvalid })
    .int(billingMessages.cardExpMonthInvalid)
    .min(1, billingMessages.cardExpMonthInvalid)
    .max(12, billingMessages.cardExpMonthInvalid),
  exp_year: z
    .number({ error: billingMessages.cardExpYearInvalid })
    .int(billingMessages.cardExpYearInvalid)
    .min(2000, billingMessages.cardExpYearInvalid)
    .max(2200, billingMessages.cardExpYearInvalid),
  cvc: z
    .string({ error: billingMessages.cardCvcInvalid })
    .trim()
    .regex(/^\d{3,4}$/, billingMessages.cardCvcInvalid),
});
export type SandboxCard = z.infer<typeof SandboxCardSchema>;

export const SandboxPaymentMethodSchema = z.object({
  id: z.string(),
  card_type: z.string(),
  last_four: z.string(),
  expiry_month: z.number().int(),
  expiry_year: z.number().int(),
});
export type SandboxPaymentMethod = z.infer<typeof SandboxPaymentMethodSchema>;

/** `POST /subscriptions/sandbox/payment-intents/{payment_intent_id}/confirm`: the client-side confirm. */
export const SandboxConfirmSchema = z.object({
  payment_method_id: z.string({ error: billingMessages.selectPaymentMethod }).trim().min(1).max(255),
});
export const SandboxPaymentIntentParamsSchema = z.object({
  payment_intent_id: z.string().regex(/^pi_[A-Za-z0-9]+$/, 'Invalid payment intent id'),
});
export const SandboxConfirmResultSchema = z.object({
  id: z.string(),
  status: z.string(),
  error_message: z.string().nullable(),
});

/**
 * The Luhn (mod 10) checksum every card number carries, on 12 to 19 digits: the one check of a
 * number, made by the web form before it sends a card and by the sandbox provider when it gets one.
 */
export function passesLuhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
/** `POST /subscriptions/sandbox/advance`: moves one customer's billing time forward (sandbox only). */
export const SandboxAdvanceSchema = z.object({
  user_id: z.uuid({ error: 'Invalid user id' }),
  seconds: z
    .number({ error: billingMessages.sandboxClockSeconds })
    .int(billingMessages.sandboxClockSeconds)
    .min(1, billingMessages.sandboxClockSeconds)
    .max(SANDBOX_ADVANCE_MAX_SECONDS, billingMessages.sandboxClockSeconds),
});
export type SandboxAdvance = z.infer<typeof SandboxAdvanceSchema>;

export const SandboxAdvanceResultSchema = z.object({
  user_id: z.uuid(),
  /** How far this customer's billing time now runs ahead of the real clock. */
  offset_seconds: z.number().int(),
  /** The customer's billing time after the move. */
  billing_time: z.iso.datetime(),
  /** Renewals, retries and period ends the move ran. */
  handled: z.number().int(),
  subscription: SubscriptionSchema.nullable(),
});
export type SandboxAdvanceResult = z.infer<typeof SandboxAdvanceResultSchema>;
