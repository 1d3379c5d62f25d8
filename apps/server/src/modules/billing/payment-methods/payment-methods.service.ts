import {
  billingMessages,
  type PaymentMethod,
  type PaymentMethodCreate,
  type PaymentMethods,
} from '@dataplatform/contract';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../../lib/errors.js';
import type { AuthContext } from '../../../lib/auth-context.js';
import { wholeList } from '../../../lib/pagination.js';
import type { BillingDeps } from '../billing.deps.js';
import { toPaymentMethod } from '../billing.mapper.js';
import type { CustomerAccounts } from './customers.service.js';
import { findCustomer } from './customers.repository.js';
import {
  deletePaymentMethod,
  findOwnPaymentMethod,
  findPaymentMethodByProviderId,
  insertPaymentMethod,
  listPaymentMethods,
  makeDefault,
  promoteNewest,
  type PaymentMethodRow,
} from './payment-methods.repository.js';

export function createPaymentMethodsService(deps: BillingDeps & { customers: CustomerAccounts }) {
  const { db, provider, customers, log } = deps;

  async function getOwn(auth: AuthContext, id: string): Promise<PaymentMethodRow> {
    const row = await findOwnPaymentMethod(db, auth.user.id, provider.name, id, false);
    if (!row) throw notFound(billingMessages.paymentMethodNotFound);
    return row;
  }

  /** The provider's default follows ours; ours is what renewals charge, so a failure here only warns. */
  async function syncProviderDefault(userId: string, providerPaymentMethodId: string) {
    const customer = await findCustomer(db, userId, provider.name);
    if (!customer) return;
    await provider.setDefaultPaymentMethod(customer.providerCustomerId, providerPaymentMethodId).catch((error) => {
      log.warn({ err: error, userId }, 'could not set the default payment method at the provider');
    });
  }

  return {
    async list(auth: AuthContext): Promise<PaymentMethods> {
      const rows = await listPaymentMethods(db, auth.user.id, provider.name);
      return wholeList(rows, toPaymentMethod);
    },

    /**
     * Attaches a card the provider's browser SDK made to the caller's customer and saves what the
     * provider says about it. The first card is the default; `is_default` makes a later one so.
     */
    async add(auth: AuthContext, body: PaymentMethodCreate): Promise<PaymentMethod> {
      const known = await findPaymentMethodByProviderId(db, body.provider_payment_method_id);
      if (known) {
        if (known.userId === auth.user.id) throw conflict(billingMessages.paymentMethodAlreadySaved);
        throw badRequest(billingMessages.paymentMethodUnknown);
      }
      const customerId = await customers.ensure(auth.user);
      const card = await provider.attachPaymentMethod(customerId, body.provider_payment_method_id);
      let saved: PaymentMethodRow;
      try {
        saved = await db.transaction(async (tx) => {
          // The customer row serialises one user's card changes (first card = default, one default).
          await findCustomer(tx, auth.user.id, provider.name, 'update');
          const existing = await listPaymentMethods(tx, auth.user.id, provider.name);
          const row = await insertPaymentMethod(tx, {
            userId: auth.user.id,
            provider: provider.name,
            providerPaymentMethodId: body.provider_payment_method_id,
            cardType: card.brand,
            lastFour: card.lastFour,
            expiryMonth: card.expMonth,
            expiryYear: card.expYear,
          });
          return body.is_default || existing.length === 0 ? makeDefault(tx, row) : row;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(billingMessages.paymentMethodAlreadySaved);
        throw error;
      }
      if (saved.isDefault) await syncProviderDefault(auth.user.id, saved.providerPaymentMethodId);
      return toPaymentMethod(saved);
    },

    /** Detaches the card at the provider, then forgets it; a default card hands the role to the newest left. */
    async remove(auth: AuthContext, id: string): Promise<void> {
      const row = await getOwn(auth, id);
      await provider.detachPaymentMethod(row.providerPaymentMethodId);
      const promoted = await db.transaction(async (tx) => {
        await findCustomer(tx, auth.user.id, provider.name, 'update');
        const deleted = await deletePaymentMethod(tx, row.id);
        return deleted?.isDefault ? promoteNewest(tx, auth.user.id, provider.name) : undefined;
      });
      if (promoted) await syncProviderDefault(auth.user.id, promoted.providerPaymentMethodId);
    },

    async setDefault(auth: AuthContext, id: string): Promise<PaymentMethod> {
      const row = await getOwn(auth, id);
      const updated = await db.transaction(async (tx) => {
        await findCustomer(tx, auth.user.id, provider.name, 'update');
        const current = await findOwnPaymentMethod(tx, auth.user.id, provider.name, row.id, false);
        if (!current) throw notFound(billingMessages.paymentMethodNotFound);
        return makeDefault(tx, current);
      });
      await syncProviderDefault(auth.user.id, updated.providerPaymentMethodId);
      return toPaymentMethod(updated);
    },
  };
}

export type PaymentMethodsService = ReturnType<typeof createPaymentMethodsService>;
