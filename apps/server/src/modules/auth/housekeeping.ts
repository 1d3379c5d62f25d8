import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { deleteDeadVerificationTokens } from '../email-verification/email-verification.service.js';
import { deleteDeadSessions } from '../sessions/sessions.service.js';
import { deleteDeadResetTokens } from './reset-tokens.repository.js';

const HOUR_MS = 60 * 60 * 1000;
/** Dead sessions and reset tokens are kept this long (for support questions), then deleted. */
export const DEAD_CREDENTIALS_RETENTION_MS = 30 * 24 * HOUR_MS;

/** Deletes sessions, reset tokens and verification links that can no longer do anything. */
export async function purgeDeadCredentials(db: Database, clock: Clock): Promise<void> {
  const before = new Date(clock.now().getTime() - DEAD_CREDENTIALS_RETENTION_MS);
  await deleteDeadSessions(db, before);
  await deleteDeadResetTokens(db, before);
  await deleteDeadVerificationTokens(db, before);
}

/** Runs the purge hourly in the background; every instance may run it, it is idempotent. */
export function createCredentialsHousekeeping(deps: { db: Database; clock: Clock; log: FastifyBaseLogger }) {
  let timer: NodeJS.Timeout | undefined;
  const run = () =>
    purgeDeadCredentials(deps.db, deps.clock).catch((error: unknown) =>
      deps.log.warn({ err: error }, 'credentials housekeeping failed'),
    );
  return {
    start() {
      timer = setInterval(() => void run(), HOUR_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
