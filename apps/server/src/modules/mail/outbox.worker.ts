import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { describeError } from '../../lib/errors.js';
import { createOutageTracker } from '../../lib/outage.js';
import { nextAttemptAt } from '../../lib/retry.js';
import type { MailTransport } from './mail.transport.js';
import { claimDueMails, markExpired, markFailedAttempt, markSent, outboxBacklog } from './outbox.repository.js';

const BATCH_SIZE = 20;
/** A claimed row is not retried by another instance before this, even if its sender died. */
const LEASE_MS = 60_000;

/**
 * Drains the outbox: polls on an interval and whenever `wake()` says new mail was committed. Failed
 * sends are retried with exponential backoff; after the last attempt the row is marked failed.
 */
export function createOutboxWorker(deps: {
  db: Database;
  transport: MailTransport;
  clock: Clock;
  config: Config['outbox'];
  log: FastifyBaseLogger;
  /**
   * Turns queued requests into outbox rows before each pass (password recovery looks its addresses
   * up here rather than while answering the request).
   */
  composeQueuedMail?: () => Promise<unknown>;
}) {
  const { db, transport, clock, config, log, composeQueuedMail } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;
  /** Set by stop(): the batch in progress finishes, no further batch or pass starts. */
  let stopping = false;
  const outage = createOutageTracker(log, 'outbox worker');

  async function deliverBatch(): Promise<number> {
    const now = clock.now();
    const claimed = await claimDueMails(db, now, new Date(now.getTime() + LEASE_MS), BATCH_SIZE);
    for (const row of claimed) {
      if (row.expiresAt !== null && row.expiresAt.getTime() <= clock.now().getTime()) {
        // Its link no longer works: sending it late would only confuse the reader.
        await markExpired(db, row.id);
        log.warn({ outboxId: row.id, attempts: row.attempts, expiredAt: row.expiresAt }, 'mail expired unsent');
        continue;
      }
      try {
        await transport.send({
          to: row.recipient,
          subject: row.subject,
          text: row.textBody,
          ...(row.htmlBody ? { html: row.htmlBody } : {}),
        });
      } catch (error) {
        const message = describeError(error);
        const retryAt = nextAttemptAt(config, row.attempts, clock.now(), row.createdAt);
        const finalAttempt = retryAt === null;
        await markFailedAttempt(db, row.id, message.slice(0, 1000), retryAt);
        if (finalAttempt) {
          log.error({ outboxId: row.id, attempts: row.attempts, err: message }, 'mail delivery failed for good');
        } else {
          log.warn(
            { outboxId: row.id, attempts: row.attempts, retryAt, err: message },
            'mail delivery failed, will retry',
          );
        }
        continue;
      }
      await markSent(db, row.id, clock.now());
      log.info({ outboxId: row.id, attempts: row.attempts }, 'mail sent');
    }
    return claimed.length;
  }

  /** A failure there must not hold up the mail already queued. */
  async function composeQueuedMailSafely(): Promise<void> {
    try {
      await composeQueuedMail?.();
    } catch (error) {
      log.error({ err: error }, 'composing queued mail failed');
    }
  }

  /**
   * Runs until no due mail is left; concurrent calls join the run in progress. Once stop() has been
   * called it finishes the batch it is sending and starts no other.
   */
  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    if (stopping) return Promise.resolve();
    running = (async () => {
      try {
        do {
          again = false;
          await composeQueuedMailSafely();
          while (!stopping && (await deliverBatch()) === BATCH_SIZE) {
            /* keep going while batches come back full */
          }
        } while (again && !stopping);
        outage.succeeded();
      } catch (error) {
        outage.failed(error);
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      void drain().finally(schedule);
    }, config.pollIntervalMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      stopping = false;
      schedule();
      void drain();
    },
    /** Call after committing a transaction that enqueued mail. */
    wake() {
      if (!stopped) void drain();
    },
    drain,
    /** Mail waiting and given up, for /readyz?details=1. */
    backlog: () => outboxBacklog(db, clock.now()),
    /**
     * Lets the batch being sent finish (each of its mails is sent and marked, or marked for retry)
     * and starts nothing after it; resolves once that batch is done. Mail still queued stays for the
     * next start or another instance.
     */
    async stop() {
      stopped = true;
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
