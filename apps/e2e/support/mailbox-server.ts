import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { mailOf } from '../../server/test/smtp.js';
import type { Mail } from './mailbox.js';

/**
 * An SMTP server on loopback that files every message it accepts as JSON in `dir`, where the specs
 * (in other processes) read them.
 */
export async function startMailbox(dir: string) {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const mail: Mail = mailOf(parsed, (file) => ({
            filename: file.filename ?? '',
            contentType: file.contentType,
            cid: file.cid ?? null,
            size: file.size,
          }));
          count += 1;
          writeFileSync(path.join(dir, `${String(count).padStart(5, '0')}.json`), JSON.stringify(mail));
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { dir, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
