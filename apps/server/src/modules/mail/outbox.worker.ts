import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { describeError } from '../../lib/errors.js';
import { createOutageTracker } from '../../lib/outage.js';
import { nextAttemptAt } from '../../lib/retry.js';
import type { MailTransport } from './mail.transport.js';
import {
  claimDueMails,
  hasMailWaitingForRetry,
  markExpired,
  markFailedAttempt,
  markSent,
  outboxBacklog,
  releaseMailWaitingForRetry,
} from './outbox.repository.js';

const BATCH_SIZE = 20;
/** nodemailer's codes for a server that cannot be reached or talked to (not a refused message). */
const UNAVAILABLE_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'EPROTOCOL']);

/** A server down or not answering, as opposed to one that refused this one message (a bad address). */
function isMailServerUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  // 421: "service not available, closing transmission channel", what a server in maintenance says.
  return responseCode === 421 || (typeof code === 'string' && UNAVAILABLE_CODES.has(code));
}
/** A claimed row is not retried by another instance before this, even if its sender died. */
const LEASE_MS = 60_000;

/**
 * Drains the outbox: polls on an interval and whenever `wake()` says new mail was committed. Failed
 * sends are retried with exponential backoff; after the last attempt the row is marked failed. While
 * mail waits for a retry, the mail server is checked at most every `probeIntervalMs`; when it answers
 * again (that check, or any send going through) the waiting mail is released at once instead of at
 * the end of its backoff (decision 042).
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
  /** What this instance last saw of the mail server: a failed send makes it `down`. */
  let mailServer: 'up' | 'down' = 'up';
  let lastProbeAt = Number.NEGATIVE_INFINITY;

  function mailServerFailed(error: string) {
    if (mailServer === 'down') return;
    mailServer = 'down';
    log.warn({ err: error }, 'mail server unreachable; waiting mail is released as soon as it answers again');
  }

  /** The server answered: waiting mail becomes due now, for every instance (it is in the table). */
  async function mailServerAnswered(how: 'send' | 'check') {
    const released = await releaseMailWaitingForRetry(db, clock.now(), config.releasePerSecond);
    const wasDown = mailServer === 'down';
    mailServer = 'up';
    if (wasDown || released > 0) log.info({ released, noticedBy: how }, 'mail server reachable again');
  }

  /**
   * A cheap check of the connection (no mail sent), at most every `probeIntervalMs` and only while
   * mail waits for a retry: that is what bounds the polling of a server that stays down.
   */
  async function probeIfMailWaits() {
    const now = clock.now().getTime();
    if (now - lastProbeAt < config.probeIntervalMs) return;
    if (!(await hasMailWaitingForRetry(db, clock.now()))) return;
    lastProbeAt = now;
    try {
      await transport.verify();
    } catch (error) {
      mailServerFailed(describeError(error));
      return;
    }
    await mailServerAnswered('check');
  }

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
          ...(row.attachments ? { attachments: row.attachments } : {}),
        });
      } catch (error) {
        const message = describeError(error);
        if (isMailServerUnavailable(error)) mailServerFailed(message);
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
      if (mailServer === 'down') await mailServerAnswered('send');
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
          await probeIfMailWaits();
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
