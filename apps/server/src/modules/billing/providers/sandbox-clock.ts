import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  billingMessages,
  userMessages,
  type SandboxAdvance,
  type SandboxAdvanceResult,
} from '@dataplatform/contract';
import type { Database } from '../../../db/client.js';
import type { Actor } from '../../../lib/auth-context.js';
import type { Clock } from '../../../lib/clock.js';
import { fieldError, notFound } from '../../../lib/errors.js';
import type { AuditService } from '../../audit/audit.service.js';
import { findUserById } from '../../users/users.service.js';
import { withPlanRoles } from '../subscriptions/subscriptions.service.js';
import { findLiveSubscriptionWithPlan } from '../subscriptions/subscriptions.repository.js';
import { advanceClockOffset } from './sandbox.repository.js';

/**
 * The sandbox's test clocks, like Stripe's (decision 046): a superuser moves one customer's billing
 * time forward and what that time makes due (renewals, retries, period ends) runs at once through
 * the renewal worker's own code. Exists only with the sandbox provider outside production.
 */
export function createSandboxClock(deps: {
  db: Database;
  clock: Clock;
  audit: AuditService;
  live: boolean;
  runDueFor: (userId: string, now: Date) => Promise<number>;
  /** Report schedules the customer authored that the new time makes due (issue 59). */
  runSchedulesFor?: (userId: string, now: Date) => Promise<number>;
}) {
  const { db, clock, audit, live, runDueFor } = deps;
  return {
    async advance(actor: Actor, body: SandboxAdvance): Promise<SandboxAdvanceResult> {
      if (!live) throw notFound(billingMessages.sandboxOnly);
      const offset = await db.transaction(async (tx) => {
        if (!(await findUserById(tx, body.user_id))) throw fieldError(['body', 'user_id'], userMessages.notFound);
        const after = await advanceClockOffset(tx, body.user_id, body.seconds, clock.now());
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.sandboxClockAdvance,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: body.user_id,
          before: { offset_seconds: after - body.seconds },
          after: { offset_seconds: after },
        });
        return after;
      });
      const billingTime = new Date(clock.now().getTime() + offset * 1000);
      const handled = await runDueFor(body.user_id, billingTime);
      await deps.runSchedulesFor?.(body.user_id, billingTime);
      const current = await findLiveSubscriptionWithPlan(db, body.user_id);
      return {
        user_id: body.user_id,
        offset_seconds: offset,
        billing_time: billingTime.toISOString(),
        handled,
        subscription: current ? await withPlanRoles(db, current) : null,
      };
    },
  };
}

export type SandboxClock = ReturnType<typeof createSandboxClock>;
