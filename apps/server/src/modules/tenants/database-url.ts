import { parse as parseConnectionString } from 'pg-connection-string';
import { DBURL_PASSWORD_MASK } from '@dataplatform/contract';

/** Query parameters the PostgreSQL driver reads secrets from, besides the user-info password. */
const SECRET_PARAMS = ['password', 'sslpassword'];

function secretParts(url: URL): { userInfo: boolean; params: string[] } {
  return { userInfo: url.password !== '', params: SECRET_PARAMS.filter((name) => url.searchParams.has(name)) };
}

/** `postgresql://app:secret@db:5432/acme` -> `postgresql://app:****@db:5432/acme`. */
export function maskDatabaseUrl(value: string): string {
  const url = new URL(value);
  const secrets = secretParts(url);
  if (secrets.userInfo) url.password = DBURL_PASSWORD_MASK;
  for (const name of secrets.params) url.searchParams.set(name, DBURL_PASSWORD_MASK);
  return url.toString();
}

export function containsMask(value: string): boolean {
  const url = new URL(value);
  return (
    url.password === DBURL_PASSWORD_MASK || SECRET_PARAMS.some((n) => url.searchParams.get(n) === DBURL_PASSWORD_MASK)
  );
}

/**
 * Puts the stored secrets back where `incoming` carries the mask, keeping the rest of `incoming`
 * (an admin may change the host without retyping the password). Undefined when a masked part has
 * no stored secret to stand for.
 */
export function unmaskDatabaseUrl(incoming: string, stored: string | null): string | undefined {
  const url = new URL(incoming);
  const previous = stored === null ? undefined : new URL(stored);
  if (url.password === DBURL_PASSWORD_MASK) {
    if (!previous?.password) return undefined;
    url.password = previous.password;
  }
  for (const name of SECRET_PARAMS) {
    if (url.searchParams.get(name) !== DBURL_PASSWORD_MASK) continue;
    const secret = previous?.searchParams.get(name);
    if (!secret) return undefined;
    url.searchParams.set(name, secret);
  }
  return url.toString();
}

/** Every spelling of the secrets in `value`, to scrub them from driver messages. */
export function secretsOf(value: string): string[] {
  const url = new URL(value);
  const raw = [url.password, ...SECRET_PARAMS.map((name) => url.searchParams.get(name) ?? '')].filter((s) => s !== '');
  const spellings = raw.flatMap((secret) => {
    try {
      return [secret, decodeURIComponent(secret)];
    } catch {
      return [secret];
    }
  });
  // Longest first, so a secret containing another is scrubbed whole.
  return [...new Set(spellings)].sort((a, b) => b.length - a.length);
}

export function scrubSecrets(message: string, secrets: string[]): string {
  return secrets.reduce((text, secret) => text.split(secret).join(DBURL_PASSWORD_MASK), message);
}

/** The contract's pattern lets through a few URLs the WHATWG parser refuses (a port over 65535). */
export function isParsableUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The host the driver will connect to for `value`, read with the driver's own parser (a `host`
 * query parameter overrides the authority; none means localhost), lower-cased, without brackets.
 */
export function databaseHostOf(value: string): string {
  const host = parseConnectionString(value).host ?? 'localhost';
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/**
 * Whether a tenant URL may be used under TENANT_DB_HOSTS: any host when the list is null, else a
 * listed host, or one under a listed `*.domain`.
 */
export function isAllowedDatabaseHost(value: string, allowedHosts: readonly string[] | null): boolean {
  if (allowedHosts === null) return true;
  const host = databaseHostOf(value);
  // "*.example.com" matches "db.example.com" (it ends with ".example.com"), not "example.com".
  return allowedHosts.some((allowed) =>
    allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) : host === allowed,
  );
}
