import type { PaymentProviderName } from '@dataplatform/contract';
import type { DbOrTx } from '../../../db/client.js';
import { billingEvents } from '../../../db/schema/index.js';

/**
 * Records an event id; false when it was recorded before. A concurrent duplicate waits on the
 * primary key until the first commits, then sees the conflict: an event takes effect once.
 */
export async function recordEvent(
  db: DbOrTx,
  event: { id: string; provider: PaymentProviderName; type: string; providerCreatedAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(billingEvents)
    .values(event)
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return inserted.length > 0;
}
