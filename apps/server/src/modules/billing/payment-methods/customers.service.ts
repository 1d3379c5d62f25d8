import type { SessionUser } from '../../../lib/auth-context.js';
import type { BillingDeps } from '../billing.deps.js';
import { findCustomer, insertCustomer } from './customers.repository.js';

/** The provider's customer for a user, created on first need (outside any transaction: it is a network call). */
export function createCustomerAccounts(deps: Pick<BillingDeps, 'db' | 'provider'>) {
  const { db, provider } = deps;
  return {
    async ensure(user: SessionUser): Promise<string> {
      const existing = await findCustomer(db, user.id, provider.name);
      if (existing) return existing.providerCustomerId;
      const providerCustomerId = await provider.createCustomer({
        userId: user.id,
        email: user.email,
        name: user.fullName,
      });
      const stored = await insertCustomer(db, { userId: user.id, provider: provider.name, providerCustomerId });
      return stored.providerCustomerId;
    },
  };
}

export type CustomerAccounts = ReturnType<typeof createCustomerAccounts>;
