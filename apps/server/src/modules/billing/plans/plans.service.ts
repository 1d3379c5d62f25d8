import {
  authzMessages,
  billingMessages,
  PERMISSIONS,
  type Plan,
  type PlanCreate,
  type Plans,
  type PlanUpdate,
} from '@dataplatform/contract';
import type { DbOrTx } from '../../../db/client.js';
import { conflict, fieldError, isCheckViolation, notFound } from '../../../lib/errors.js';
import { normalizeDecimal, toMinor } from '../../../lib/money.js';
import { wholeList } from '../../../lib/pagination.js';
import type { Actor, AuthContext } from '../../../lib/auth-context.js';
import type { BillingDeps } from '../billing.deps.js';
import { stripeInterval } from '../subscriptions/billing-periods.js';
import { toPlan } from '../billing.mapper.js';
import {
  countLiveSubscriptionsOfPlan,
  deletePlan,
  findPlan,
  insertPlan,
  keyShareRoleIds,
  listPlans,
  listRolesOfPlans,
  lockLiveSubscriptionsOfPlan,
  replacePlanRoles,
  updatePlan,
  type PlanRow,
} from './plans.repository.js';
import { listPlanRoleIds, syncPlanGrants } from './plan-grants.js';

export function createPlansService(deps: BillingDeps) {
  const { db, clock, config, provider, hasPermission, audit } = deps;

  async function withRoles(tx: DbOrTx, row: PlanRow): Promise<Plan> {
    return toPlan(row, (await listRolesOfPlans(tx, [row.id])).get(row.id) ?? []);
  }

  /**
   * Sets the plan's roles to `roleIds` (repeats count once); an unknown id is a 422 naming its
   * position. The roles are key-share locked, so a concurrent role delete waits (decision 009).
   */
  async function setRoles(tx: DbOrTx, planId: string, roleIds: string[]): Promise<boolean> {
    const wanted = [...new Set(roleIds)].sort();
    const found = await keyShareRoleIds(tx, wanted);
    const missing = roleIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw fieldError(['body', 'role_ids', missing], authzMessages.unknownRole(roleIds[missing]!));
    const before = await listPlanRoleIds(tx, planId);
    if (before.length === wanted.length && before.every((id, index) => id === wanted[index])) return false;
    await replacePlanRoles(tx, planId, wanted);
    return true;
  }
  return {
    /** Everyone signed in sees active plans; plan managers (superusers) also the inactive ones. */
    async list(auth: AuthContext): Promise<Plans> {
      const includeInactive = await hasPermission(auth, PERMISSIONS.plansWrite);
      const rows = await listPlans(db, { includeInactive });
      const roles = await listRolesOfPlans(
        db,
        rows.map((row) => row.id),
      );
      return wholeList(rows, (row) => toPlan(row, roles.get(row.id) ?? []));
    },

    async create(body: PlanCreate): Promise<Plan> {
      return db.transaction(async (tx) => {
        const row = await insertPlan(tx, {
          name: body.name,
          description: body.description,
          price: normalizeDecimal(body.price),
          currency: config.currency,
          billingPeriod: body.billing_period,
          features: body.features,
          isActive: body.is_active,
        });
        await setRoles(tx, row.id, body.role_ids);
        return withRoles(tx, row);
      });
    },

    /**
     * Changes the plan; new `role_ids` reach its live subscribers in the same transaction (each
     * grant and withdrawal audited with the cause `plan_roles_changed`).
     */
    async update(actor: Actor, id: string, body: PlanUpdate): Promise<Plan> {
      return db.transaction(async (tx) => {
        const before = await findPlan(tx, id, 'update');
        if (!before) throw notFound(billingMessages.planNotFound);
        const price = body.price === undefined ? undefined : normalizeDecimal(body.price);
        const priceChanged =
          (price !== undefined && toMinor(price) !== toMinor(before.price)) ||
          (body.billing_period !== undefined && body.billing_period !== before.billingPeriod);
        const updated = await updatePlan(tx, id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(price !== undefined ? { price } : {}),
          ...(body.billing_period !== undefined ? { billingPeriod: body.billing_period } : {}),
          ...(body.features !== undefined ? { features: body.features } : {}),
          ...(body.is_active !== undefined ? { isActive: body.is_active } : {}),
          // The provider's price is for the old amount; update-stripe-price makes a new one.
          ...(priceChanged ? { providerPriceId: null } : {}),
          updatedAt: clock.now(),
        });
        // The row is locked above, so this holds; the check keeps a vanished row a 404, never a 500.
        if (!updated) throw notFound(billingMessages.planNotFound);
        if (body.role_ids !== undefined && (await setRoles(tx, id, body.role_ids))) {
          const by = { id: actor.user.id, email: actor.user.email, ip: actor.ip };
          for (const subscription of await lockLiveSubscriptionsOfPlan(tx, id)) {
            await syncPlanGrants(tx, audit, { subscription, cause: 'plan_roles_changed', actor: by });
          }
        }
        return withRoles(tx, updated);
      });
    },

    /** Refused while anyone is subscribed: deactivating is the way to retire such a plan. */
    async remove(id: string): Promise<void> {
      try {
        await db.transaction(async (tx) => {
          // The row lock waits out a subscription being written for this plan, and blocks new ones.
          if (!(await findPlan(tx, id, 'update'))) throw notFound(billingMessages.planNotFound);
          if ((await countLiveSubscriptionsOfPlan(tx, id)) > 0)
            throw conflict(billingMessages.planHasSubscriptions, 'plan_in_use');
          await deletePlan(tx, id);
        });
      } catch (error) {
        // check_violation: a live subscription would lose its plan.
        if (isCheckViolation(error)) throw conflict(billingMessages.planHasSubscriptions, 'plan_in_use');
        throw error;
      }
    },

    /** Creates the provider's recurring price for the plan's current amount and remembers it. */
    async updateProviderPrice(id: string): Promise<Plan> {
      const plan = await findPlan(db, id);
      if (!plan) throw notFound(billingMessages.planNotFound);
      const created = await provider.createPrice({
        planId: plan.id,
        name: plan.name,
        amount: toMinor(plan.price),
        currency: plan.currency,
        interval: stripeInterval(plan.billingPeriod),
        productId: plan.providerProductId,
      });
      const updated = await db.transaction(async (tx) => {
        const current = await findPlan(tx, id, 'update');
        if (!current) throw notFound(billingMessages.planNotFound);
        // The price changed while the provider was answering: keep the new amount without a stale price.
        const stale = toMinor(current.price) !== toMinor(plan.price) || current.billingPeriod !== plan.billingPeriod;
        return updatePlan(tx, id, {
          providerProductId: created.productId,
          providerPriceId: stale ? null : created.priceId,
          updatedAt: clock.now(),
        });
      });
      // The row is locked above, so this holds; the check keeps a vanished row a 404, never a 500.
      if (!updated) throw notFound(billingMessages.planNotFound);
      return withRoles(db, updated);
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;
