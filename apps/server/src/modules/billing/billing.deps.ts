import type { PermissionName } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { AuthContext } from '../auth/sessions.service.js';
import type { PaymentProvider } from './payment-provider.js';

/** What every billing service is built from. */
export interface BillingDeps {
  db: Database;
  clock: Clock;
  config: BillingConfig;
  provider: PaymentProvider;
  log: FastifyBaseLogger;
  hasPermission: (auth: AuthContext, permission: PermissionName) => Promise<boolean>;
}
