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
