import { UAParser } from 'ua-parser-js';

/**
 * A readable browser and system for a User-Agent header ("Chrome 131 on macOS", "Safari on iOS
 * 18.1"), or null when neither can be told. Shown in the sessions list and in the new sign-in mail;
 * the header is the client's own claim, so this describes it, it proves nothing (decision 027).
 */
export function describeUserAgent(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = new UAParser(userAgent).getResult();
  const browserText = browser.name ? [browser.name, browser.major].filter(Boolean).join(' ') : null;
  const osName = os.name === 'Mac OS' ? 'macOS' : os.name;
  const osText = osName ? [osName, os.version].filter(Boolean).join(' ') : null;
  if (browserText && osText) return `${browserText} on ${osText}`;
  return browserText ?? osText;
}
