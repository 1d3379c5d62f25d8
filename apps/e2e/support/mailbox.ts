import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** What came attached: a scheduled report's CSVs and inline chart images (by Content-ID). */
  attachments?: { filename: string; contentType: string; cid: string | null; size: number }[];
}

function readMails(dir: string): Mail[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Mail);
}

/** Waits until a mail to `address` arrives in the loopback mailbox and returns the newest one. */
export async function waitForMailTo(address: string, timeoutMs = 15_000): Promise<Mail> {
  const dir = process.env.E2E_MAILBOX_DIR;
  if (!dir) throw new Error('E2E_MAILBOX_DIR is not set: run the specs through playwright.config.ts');
  const toAddress = (mail: Mail) => mail.to.includes(address.toLowerCase());
  await expect
    .poll(() => readMails(dir).filter(toAddress).length, { timeout: timeoutMs, message: `a mail to ${address}` })
    .toBeGreaterThan(0);
  const mails = readMails(dir).filter(toAddress);
  return mails[mails.length - 1] as Mail;
}

/** The first link in a mail that points at `pathPrefix` on the app. */
export function linkIn(mail: Mail, pathPrefix: string): string {
  const links = `${mail.text}\n${mail.html}`.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  const link = links
    .map((raw) => raw.replaceAll('&amp;', '&'))
    .find((url) => new URL(url).pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`no ${pathPrefix} link in the mail "${mail.subject}"`);
  return link;
}
