import type { FastifyBaseLogger } from 'fastify';
import type { BillingConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { HasPermission } from '../../lib/auth-context.js';
import type { AuditService } from '../audit/audit.service.js';
import type { PaymentProvider } from './providers/payment-provider.js';

/** What every billing service is built from. */
export interface BillingDeps {
  db: Database;
  clock: Clock;
  config: BillingConfig;
  provider: PaymentProvider;
  log: FastifyBaseLogger;
  hasPermission: HasPermission;
  /** Plan grants and withdrawals of roles are audited (decision 046). */
  audit: AuditService;
}
