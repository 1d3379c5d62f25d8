import { simpleParser, type Attachment, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Files sent with it: a scheduled report's CSVs and inline chart images (`cid`). */
  attachments: { filename: string; contentType: string; cid: string | undefined; content: Buffer }[];
}

/**
 * A parsed message as the tests read it: its recipients' addresses, subject, text and HTML, and its
 * attachments as `attachment` tells them. The server tests' SMTP server and the browser specs'
 * mailbox (apps/e2e/support/mailbox-server.ts) both file what they accept through it.
 */
export function mailOf<A>(parsed: ParsedMail, attachment: (file: Attachment) => A) {
  const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((group) =>
    group.value.map((entry) => entry.address ?? ''),
  );
  return {
    to,
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: parsed.html || '',
    attachments: parsed.attachments.map(attachment),
  };
}

/**
 * A real SMTP server on loopback. `accepting = false` makes it answer 421 to every connection, the
 * way a server that is down for maintenance does (and 451 to a message of a connection opened
 * before), so tests can watch the outbox retry.
 */
export async function startSmtpServer(options: { acceptDelayMs?: number } = {}) {
  const received: ReceivedMail[] = [];
  const waiters: { predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void }[] = [];
  const state = { accepting: true, rejected: 0 };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      if (state.accepting) return callback();
      state.rejected += 1;
      callback(Object.assign(new Error('Service temporarily unavailable, try again later'), { responseCode: 421 }));
    },
    onData(stream, _session, callback) {
      if (!state.accepting) {
        stream.resume();
        stream.on('end', () => {
          state.rejected += 1;
          const error = Object.assign(new Error('Service temporarily unavailable'), { responseCode: 451 });
          callback(error);
        });
        return;
      }
      simpleParser(stream)
        // A server that takes its time per message keeps a sender busy (the fleet tests need that).
        .then(async (parsed) => {
          if (options.acceptDelayMs) await new Promise((resolve) => setTimeout(resolve, options.acceptDelayMs));
          const mail: ReceivedMail = mailOf(parsed, (file) => ({
            filename: file.filename ?? '',
            contentType: file.contentType,
            cid: file.cid,
            content: file.content,
          }));
          received.push(mail);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(mail)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(mail);
            }
          }
          callback();
        })
        .catch(callback);
    },
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    received,
    state,
    /** Resolves with the first mail (already received or still to come) that matches. */
    waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
      const already = received.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching mail arrived')), timeoutMs);
        waiters.push({
          predicate,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
