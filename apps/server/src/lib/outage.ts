import type { FastifyBaseLogger } from 'fastify';
import { describeError, isDatabaseUnavailable } from './errors.js';

/**
 * A background worker's view of a database outage: one log line when it pauses (a pass failed
 * because the database is unreachable) and one when it resumes, instead of an error per poll.
 */
export function createOutageTracker(log: FastifyBaseLogger, worker: string) {
  let paused = false;
  return {
    /** Logs a failed pass; returns whether it was an outage (the worker simply tries again later). */
    failed(error: unknown): boolean {
      if (!isDatabaseUnavailable(error)) {
        log.error({ err: error }, `${worker} error`);
        return false;
      }
      if (!paused) {
        paused = true;
        log.warn({ worker, reason: describeError(error) }, `${worker} paused: database unavailable`);
      }
      return true;
    },
    succeeded(): void {
      if (!paused) return;
      paused = false;
      log.info({ worker }, `${worker} resumed: database available again`);
    },
    get paused() {
      return paused;
    },
  };
}
