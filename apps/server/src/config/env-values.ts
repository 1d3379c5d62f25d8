import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

// How the environment's text becomes values: the parsers EnvSchema (../config.ts) builds from.

export const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * Which proxies may speak for the client (Fastify's `trustProxy`): `true` trusts every hop, so the
 * client's own `X-Forwarded-For` entry decides its address — right only behind an edge proxy that
 * overwrites the header (ours does); a comma list of addresses or CIDR ranges trusts those proxies
 * only, so a client cannot forge its address by writing the header itself behind a proxy that
 * appends to it, nor set its own request id by reaching the server directly.
 */
export const trustProxyFromEnv = z.string().transform((value, context): boolean | string[] => {
  const text = value.trim().toLowerCase();
  if (['', 'false', '0', 'no'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return true;
  const proxies = text.split(',').map((entry) => entry.trim());
  const invalid = proxies.filter((entry) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const version = isIP(address);
    if (version === 0 || rest.length > 0) return true;
    if (bits === undefined) return false;
    return !/^\d{1,3}$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128);
  });
  if (invalid.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `expected true, false or a comma list of proxy addresses or CIDR ranges; not ${invalid.join(', ')}`,
    });
    return z.NEVER;
  }
  return proxies;
});

export const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** Where extract files live (STUDIO_STORAGE_URL): a folder (`file:///…`), or a bucket and prefix (`s3://…`). */
type StorageUrl = { kind: 'folder'; dir: string } | { kind: 's3'; bucket: string; prefix: string };

export function storageFromUrl(value: string, context: z.RefinementCtx): StorageUrl {
  const refuse = (message: string) => {
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse('expected file:///absolute/folder or s3://bucket/prefix');
  }
  if (url.protocol === 'file:') {
    if (url.host !== '' && url.host !== 'localhost')
      return refuse('a file: URL names a folder on this machine (file:///…)');
    return { kind: 'folder', dir: fileURLToPath(url) };
  }
  if (url.protocol === 's3:') {
    // Bucket names: 3 to 63 lowercase letters, digits, dots and hyphens (S3's own rule).
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname))
      return refuse('s3://bucket/prefix needs a bucket name');
    if (url.username !== '' || url.password !== '' || url.search !== '') {
      return refuse('s3:// takes a bucket and a prefix only; credentials come from the AWS SDK’s usual variables');
    }
    const prefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
    return { kind: 's3', bucket: url.hostname, prefix };
  }
  return refuse('expected file:///absolute/folder or s3://bucket/prefix');
}
