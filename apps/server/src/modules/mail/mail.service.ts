import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditService } from '../audit/audit.service.js';

/**
 * What other modules use of mail: the messages they send, and the outbox they queue them in within
 * their own transaction (a mail is queued exactly when the write that causes it commits).
 */
export {
  contactNotificationMail,
  emailChangedMail,
  emailChangeVerificationMail,
  emailVerificationMail,
  newSignInMail,
  passwordRecoveryMail,
  PRODUCT_NAME,
  signupWithExistingAccountMail,
  twoFactorChangedMail,
  ssoRecoveryMail,
  welcomeMail,
} from './mail.templates.js';
export { enqueueMail, type MailAttachment } from './outbox.repository.js';

/**
 * What a service that queues mail is built on (sessions, e-mail links, users, two-factor, contact):
 * one value, made once where the services are wired (modules/index.ts).
 */
export interface MailingServiceDeps {
  db: Database;
  config: Config;
  clock: Clock;
  audit: AuditService;
  /** Has the outbox send what a committed write queued now, rather than at its next poll. */
  wakeMailer: () => void;
}
