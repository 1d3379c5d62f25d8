import { DOWNLOAD_ROLE_PREFIX } from '@dataplatform/contract';

/** The files a user's roles grant: `download_quarterly_report` gives the file "quarterly_report". */
export function downloadableFiles(roles: readonly string[]): { file: string; label: string }[] {
  return roles
    .filter((role) => role.startsWith(DOWNLOAD_ROLE_PREFIX) && role.length > DOWNLOAD_ROLE_PREFIX.length)
    .map((role) => {
      const file = role.slice(DOWNLOAD_ROLE_PREFIX.length);
      return { file, label: file.replaceAll('_', ' ') };
    });
}
