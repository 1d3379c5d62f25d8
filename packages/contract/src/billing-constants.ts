// No zod here (decision 030): a screen that only shows billing texts or limits does not load zod.
/**
 * Subscription billing (SET-PLANS, SET-CARDS, SET-BILLING and BILL requirements). Money is a decimal string with two
 * places ("19.99") everywhere it leaves the server; the client parses it for display only.
 */
export const BILLING_PERIODS = ['monthly', 'annual'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const TRANSACTION_STATUSES = ['succeeded', 'pending', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const PAYMENT_PROVIDERS = ['stripe', 'sandbox'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** Billing history page (SET-BILLING-1). */
export const TRANSACTIONS_PAGE_SIZE = 10;

export const PLAN_NAME_MAX = 100;
export const PLAN_DESCRIPTION_MAX = 2000;
export const PLAN_FEATURES_MAX = 50;
export const PLAN_FEATURE_MAX_LENGTH = 200;
/** Roles one plan may grant (decision 046). */
export const PLAN_ROLES_MAX = 50;
/** The longest a sandbox clock moves in one call: three years, so one call renews at most 36 monthly periods. */
export const SANDBOX_ADVANCE_MAX_SECONDS = 3 * 366 * 24 * 60 * 60;
/** Largest price a plan may have: ten digits before the point fit numeric(12, 2). */
export const PRICE_PATTERN = /^\d{1,10}(\.\d{1,2})?$/;

export const billingMessages = {
  // SET-PLANS-7, SET-PLANS-9, SET-PLANS-10, SET-CARDS-4, SET-CARDS-5, SET-BILLING-4, SET-BILLING-5: shown by the web app.
  createPlanFailed: 'Failed to create the plan',
  createSubscriptionFailed: 'Failed to create subscription',
  cancelSubscriptionFailed: 'Failed to cancel subscription',
  deletePlanFailed: 'Failed to delete plan',
  plansLoadFailed: 'Error loading subscription plans. Please try again later.',
  noPlans: 'No subscription plans are available yet. Please check back later.',
  deletePaymentMethodFailed: 'Failed to delete payment method',
  setDefaultFailed: 'Failed to update default payment method',
  addPaymentMethodFailed: 'Failed to add payment method',
  providerError: 'An error occurred',
  noPaymentMethods: 'No payment methods added yet.',
  transactionsLoadFailed: 'Error loading transaction history. Please try again later.',
  noTransactions: 'No transactions found',
  selectPaymentMethod: 'Please select a payment method',
  addPaymentMethodFirst: 'Please add a payment method first.',
  // Server answers.
  priceInvalid: 'Price must be a decimal amount with at most two decimal places, like 19.99',
  priceNotPositive: 'Price must be greater than zero',
  nameRequired: 'Plan name is required',
  descriptionRequired: 'Plan description is required',
  featureInvalid: 'Each feature must be non-empty text',
  planNotFound: 'Plan not found',
  planInactive: 'This plan is not available for new subscriptions',
  planHasSubscriptions:
    'This plan has active subscriptions and cannot be deleted. Deactivate it instead (set is_active to false).',
  planIdMismatch: 'plan_id in the body does not match the plan in the path',
  paymentMethodNotFound: 'Payment method not found',
  paymentMethodAlreadySaved: 'This payment method is already saved',
  paymentMethodUnknown: 'The payment provider does not know this payment method',
  alreadySubscribed: 'You are already subscribed to this plan',
  paymentInProgress: 'A payment for your account is already in progress. Please wait a moment and try again.',
  noActiveSubscription: 'You have no active subscription',
  noDefaultPaymentMethod: 'No default payment method to charge',
  providerUnavailable: 'The payment provider is unavailable. Please try again later.',
  webhookSignatureMissing: 'Missing Stripe-Signature header',
  webhookSignatureInvalid: 'Invalid webhook signature',
  webhookPayloadInvalid: 'Invalid webhook payload',
  paymentIntentNotFound: 'Payment intent not found',
  planRolesTooMany: `A plan grants at most ${PLAN_ROLES_MAX} roles`,
  sandboxClockSeconds: `seconds must be a whole number from 1 to ${SANDBOX_ADVANCE_MAX_SECONDS}`,
  sandboxOnly: 'This endpoint exists only when the sandbox payment provider is active',
  cardNumberInvalid: 'Your card number is invalid.',
  cardExpiryInvalid: "Your card's expiration date is in the past.",
  cardExpMonthInvalid: "Your card's expiration month is invalid.",
  cardExpYearInvalid: "Your card's expiration year is invalid.",
  cardCvcInvalid: "Your card's security code is invalid.",
} as const;
