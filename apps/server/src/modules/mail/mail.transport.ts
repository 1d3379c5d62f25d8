import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { OutgoingMail } from './outbox.repository.js';

/** Where mail finally goes: an SMTP server, or the log when none is configured. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  /** Resolves when the server answers (connection and greeting, no mail sent); rejects otherwise. */
  verify(): Promise<void>;
  close(): void;
}

/**
 * nodemailer loads with the first mail: an instance that sends none does not carry it (about
 * 4.6 MiB at import). One transporter serves every mail after that.
 */
export function createSmtpTransport(config: Config, smtp: NonNullable<Config['smtp']>): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  const connect = () =>
    (transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.ssl,
        requireTLS: smtp.tls && !smtp.ssl,
        ignoreTLS: !smtp.tls && !smtp.ssl,
        auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    ));
  return {
    async send(mail) {
      const connected = await connect();
      await connected.sendMail({
        from: { name: config.emailsFrom.name, address: config.emailsFrom.email },
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.attachments
          ? {
              attachments: mail.attachments.map((file) => ({
                filename: file.filename,
                contentType: file.contentType,
                content: file.content,
                encoding: 'base64',
                ...(file.cid ? { cid: file.cid } : {}),
              })),
            }
          : {}),
      });
    },
    async verify() {
      const connected = await connect();
      await connected.verify();
    },
    close: () => void transporter?.then((connected) => connected.close()),
  };
}

/**
 * Without SMTP_HOST (allowed outside production), mails are written to the log so a local user can
 * still follow a recovery link.
 */
export function createLogTransport(log: FastifyBaseLogger): MailTransport {
  return {
    async send(mail) {
      log.info({ mail: { to: mail.to, subject: mail.subject } }, `e-mail (no SMTP_HOST set):\n${mail.text}`);
    },
    verify: async () => undefined,
    close: () => undefined,
  };
}
