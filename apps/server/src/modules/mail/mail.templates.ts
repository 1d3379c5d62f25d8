import type { OutgoingMail } from './outbox.repository.js';

/** Texts of the mails the product sends. Every interpolated value is HTML-escaped. */
export const PRODUCT_NAME = 'Data Platform';

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function layout(title: string, paragraphs: string[], action?: { label: string; href: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.href)}" style="background:#1565c0;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555">If the button does not work, paste this address into your browser:<br>${escapeHtml(action.href)}</p>`
    : '';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}${button}
<p style="font-size:12px;color:#777">${escapeHtml(PRODUCT_NAME)}</p></body></html>`;
}

export function passwordRecoveryMail(to: string, link: string, validMinutes: number): OutgoingMail {
  const subject = `${PRODUCT_NAME} - Password recovery`;
  const lines = [
    `We received a request to reset the password of the account ${to}.`,
    `The link below works once and expires in ${validMinutes} minutes.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  return {
    to,
    subject,
    text: `${lines[0]}\n\nReset your password: ${link}\n\n${lines[1]}\n${lines[2]}\n`,
    html: layout(subject, lines, { label: 'Reset password', href: link }),
  };
}

/** Sent instead of a reset link to an account single sign-on made, when its connection allows no recovery (SSO-6). */
export function ssoRecoveryMail(to: string, loginLink: string): OutgoingMail {
  const subject = `${PRODUCT_NAME} - Password recovery`;
  const lines = [
    `We received a request to reset the password of the account ${to}.`,
    'This account signs in with single sign-on and has no password here: on the login page, choose "Sign in with SSO" and enter your e-mail address.',
    'If you did not ask for this, ignore this e-mail: nothing has changed.',
  ];
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\nLog in: ${loginLink}\n`,
    html: layout(subject, lines, { label: 'Log in', href: loginLink }),
  };
}

/** The welcome carries the account's first verification link (decision 029). */
export function welcomeMail(
  to: string,
  fullName: string,
  links: { verify: string; login: string },
  validHours: number,
): OutgoingMail {
  const subject = `Welcome to ${PRODUCT_NAME}`;
  const lines = [
    `Hello ${fullName},`,
    `Your account ${to} is ready. You can log in any time.`,
    `Verify your e-mail address to subscribe to a plan and download files. The link below works once and expires in ${validHours} hours.`,
  ];
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\nVerify your e-mail address: ${links.verify}\n\nLog in: ${links.login}\n`,
    html: layout(subject, lines, { label: 'Verify e-mail address', href: links.verify }),
  };
}

/** A new link for the account's own address, sent when its owner asks for one. */
export function emailVerificationMail(to: string, link: string, validHours: number): OutgoingMail {
  const subject = `${PRODUCT_NAME} - Verify your e-mail address`;
  const lines = [
    `Follow the link below to verify ${to} as the address of your ${PRODUCT_NAME} account.`,
    `The link works once and expires in ${validHours} hours.`,
    'If you did not ask for this, ignore this e-mail.',
  ];
  return {
    to,
    subject,
    text: `${lines[0]}\n\nVerify your e-mail address: ${link}\n\n${lines[1]}\n${lines[2]}\n`,
    html: layout(subject, lines, { label: 'Verify e-mail address', href: link }),
  };
}

/** Sent to the new address of a change: the account moves to it only when this link is followed. */
export function emailChangeVerificationMail(
  to: string,
  currentEmail: string,
  link: string,
  validHours: number,
): OutgoingMail {
  const subject = `${PRODUCT_NAME} - Confirm your new e-mail address`;
  const lines = [
    `Someone asked to change the e-mail address of the ${PRODUCT_NAME} account ${currentEmail} to ${to}.`,
    `Follow the link below to confirm the change. It works once and expires in ${validHours} hours.`,
    'If you did not ask for this, ignore this e-mail: nothing changes.',
  ];
  return {
    to,
    subject,
    text: `${lines[0]}\n\nConfirm the new address: ${link}\n\n${lines[1]}\n${lines[2]}\n`,
    html: layout(subject, lines, { label: 'Confirm new address', href: link }),
  };
}

/** Told to the old address once an account has moved to a new one. */
export function emailChangedMail(to: string, newEmail: string, contactLink: string): OutgoingMail {
  const subject = `${PRODUCT_NAME} - Your e-mail address was changed`;
  const lines = [
    `The ${PRODUCT_NAME} account that used ${to} now uses ${newEmail}. Mails about it go there from now on.`,
    'If you did not make this change, tell us at once through our contact page: someone else may control your account.',
  ];
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\nContact us: ${contactLink}\n`,
    html: layout(subject, lines, { label: 'Contact us', href: contactLink }),
  };
}

/**
 * Sent instead of a welcome when someone signs up with an address that already has an account:
 * the sign-up form answers the same either way, and only the owner of the address learns more.
 */
export function signupWithExistingAccountMail(to: string, recoveryLink: string): OutgoingMail {
  const subject = `${PRODUCT_NAME} - Sign-up attempt for your address`;
  const lines = [
    `Someone tried to create an account with ${to}, but this address already has one.`,
    'If that was you, log in with your password, or reset it if you have forgotten it.',
    'If it was not you, you can ignore this e-mail: nothing has changed.',
  ];
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\nReset your password: ${recoveryLink}\n`,
    html: layout(subject, lines, { label: 'Reset your password', href: recoveryLink }),
  };
}

/** Tells the team about a contact form message; the sender's words are quoted, never trusted as markup. */
export function contactNotificationMail(
  to: string,
  submission: {
    name: string;
    email: string;
    company: string | null;
    phone: string | null;
    subject: string;
    message: string;
    source: string;
  },
): OutgoingMail {
  const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ');
  const subject = `${PRODUCT_NAME} - Contact: ${oneLine(submission.subject)}`.slice(0, 250);
  const details = [
    `From: ${submission.name} <${submission.email}>`,
    `Company: ${submission.company ?? '-'}`,
    `Phone: ${submission.phone ?? '-'}`,
    `Source: ${submission.source}`,
    `Subject: ${submission.subject}`,
  ].map(oneLine);
  return {
    to,
    subject,
    text: `A message arrived through the contact form.\n\n${details.join('\n')}\n\n${submission.message}\n`,
    html: layout('New contact form message', [...details, submission.message]),
  };
}

/** Two-factor sign-in changes, told to the account owner (decision 026): an unexpected one is a warning. */
export function twoFactorChangedMail(
  to: string,
  change: 'enabled' | 'disabled' | 'reset' | 'recovery_code_used',
  details: { recoveryCodesLeft?: number } = {},
): OutgoingMail {
  const subjects = {
    enabled: `${PRODUCT_NAME} - Two-factor authentication turned on`,
    disabled: `${PRODUCT_NAME} - Two-factor authentication turned off`,
    reset: `${PRODUCT_NAME} - Two-factor authentication turned off by an administrator`,
    recovery_code_used: `${PRODUCT_NAME} - A recovery code was used to sign in`,
  } as const;
  const firstLines = {
    enabled: `Two-factor authentication was turned on for the account ${to}. Signing in now takes a code from your authenticator app.`,
    disabled: `Two-factor authentication was turned off for the account ${to}. Signing in now takes only your password.`,
    reset: `An administrator turned off two-factor authentication for the account ${to} and signed it out everywhere. Signing in now takes only your password; turn two-factor authentication on again under Settings, Security.`,
    recovery_code_used: `Someone signed in to the account ${to} with one of its recovery codes. That code no longer works; ${details.recoveryCodesLeft ?? 0} remain.`,
  } as const;
  const subject = subjects[change];
  const lines = [
    firstLines[change],
    'If this was not you, change your password at once and review the Security tab of your settings.',
  ];
  return { to, subject, text: `${lines.join('\n\n')}\n`, html: layout(subject, lines) };
}

/**
 * Sent when an account signs in from an address and browser it has not used before (decision 027):
 * when, from where, with what, and how to end that session if it was not the owner.
 */
export function newSignInMail(
  to: string,
  signIn: { at: Date; ip: string | null; device: string | null; securityLink: string },
): OutgoingMail {
  const subject = `${PRODUCT_NAME} - New sign-in to your account`;
  const when = `${signIn.at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const details = [
    `Time: ${when}`,
    `Address: ${signIn.ip ?? 'unknown'}`,
    `Browser: ${signIn.device ?? 'unknown browser'}`,
  ];
  const lines = [
    `Your account ${to} was just signed in to from a browser or address it has not used before.`,
    ...details,
    'If this was you, there is nothing to do.',
    'If it was not you, open Settings, then Security, and choose "Sign out" next to that session (or "Sign out all other sessions"), then change your password.',
  ];
  return {
    to,
    subject,
    text: `${lines.join('\n\n')}\n\nYour sessions: ${signIn.securityLink}\n`,
    html: layout(subject, lines, { label: 'Review your sessions', href: signIn.securityLink }),
  };
}
