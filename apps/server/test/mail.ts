import type { TestContext } from './harness.js';
import type { ReceivedMail } from './smtp.js';

/**
 * Runs `action`, then waits for a mail matching `predicate` that had not arrived before it: several
 * mails to one address (two recovery requests) are told apart.
 */
export async function mailAfter(
  ctx: TestContext,
  predicate: (mail: ReceivedMail) => boolean,
  action: () => Promise<unknown>,
): Promise<ReceivedMail> {
  const seen = new Set(ctx.smtp.received);
  await action();
  return ctx.smtp.waitFor((mail) => !seen.has(mail) && predicate(mail));
}

export const isRecoveryMailTo = (email: string) => (mail: ReceivedMail) =>
  mail.to.includes(email) && mail.subject.includes('Password recovery');

/** The token of a `FRONTEND_HOST/<page>?token=…` link in a mail (text or HTML); `what` names it in the failure. */
function linkTokenFrom(ctx: TestContext, body: string, page: string, what: string): string {
  const prefix = `${ctx.config.frontendHost}/${page}?token=`;
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}([^\\s"<&]+)`).exec(body);
  if (!match?.[1]) throw new Error(`no ${what} link in: ${body}`);
  return decodeURIComponent(match[1]);
}

/** The token of the `FRONTEND_HOST/reset-password?token=…` link in a mail (text or HTML). */
export function resetTokenFrom(ctx: TestContext, body: string): string {
  return linkTokenFrom(ctx, body, 'reset-password', 'reset');
}

/** The token of the `FRONTEND_HOST/verify-email?token=…` link in a mail (text or HTML). */
export function verificationTokenFrom(ctx: TestContext, body: string): string {
  return linkTokenFrom(ctx, body, 'verify-email', 'verification');
}
