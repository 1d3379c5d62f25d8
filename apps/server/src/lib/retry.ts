import type { Config } from '../config.js';

/**
 * When to try again after `attempts` failed tries of something queued at `queuedAt`: exponential
 * backoff from `retryBaseMs` up to `retryCeilingMs`, for as long as `giveUpAfterMs` allows (and
 * `maxAttempts`, when set); null means give up. Shared by mails and the requests that turn into
 * mails. A ceiling rather than ever longer waits: after an outage of hours the mail goes out within
 * one ceiling of SMTP coming back.
 */
export function nextAttemptAt(config: Config['outbox'], attempts: number, now: Date, queuedAt: Date): Date | null {
  if (config.maxAttempts !== undefined && attempts >= config.maxAttempts) return null;
  if (now.getTime() - queuedAt.getTime() >= config.giveUpAfterMs) return null;
  const backoff = config.retryBaseMs * 2 ** Math.min(Math.max(0, attempts - 1), 40);
  return new Date(now.getTime() + Math.min(config.retryCeilingMs, backoff));
}
