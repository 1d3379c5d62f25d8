import type { PaymentMethod, Plan, Subscription, Transaction } from '@dataplatform/contract';
import { normalizeDecimal } from '../../lib/money.js';
import type { PaymentMethodRow } from './payment-methods/payment-methods.repository.js';
import type { PlanRoleRef, PlanRow } from './plans/plans.repository.js';
import type { SubscriptionWithPlan } from './subscriptions/subscriptions.repository.js';
import type { TransactionRow } from './transactions.repository.js';

export function toPlan(row: PlanRow, roles: PlanRoleRef[]): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: normalizeDecimal(row.price),
    currency: row.currency,
    billing_period: row.billingPeriod,
    features: row.features,
    is_active: row.isActive,
    role_ids: roles.map((role) => role.id),
    roles: roles.map((role) => ({ id: role.id, name: role.name })),
    provider_price_id: row.providerPriceId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toPaymentMethod(row: PaymentMethodRow): PaymentMethod {
  return {
    id: row.id,
    provider_payment_method_id: row.providerPaymentMethodId,
    card_type: row.cardType,
    last_four: row.lastFour,
    expiry_month: row.expiryMonth,
    expiry_year: row.expiryYear,
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
  };
}

export function toSubscription(row: SubscriptionWithPlan, planRoles: PlanRoleRef[]): Subscription {
  return {
    id: row.id,
    plan: toPlan(row.plan, planRoles),
    status: row.status,
    current_period_start: row.currentPeriodStart.toISOString(),
    current_period_end: row.currentPeriodEnd.toISOString(),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    canceled_at: row.canceledAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export function toTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    amount: normalizeDecimal(row.amount),
    currency: row.currency,
    status: row.status,
    error_message: row.errorMessage,
    description: row.description,
  };
}
