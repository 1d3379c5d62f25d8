export const fileMessages = {
  invalidName: 'Invalid file name',
  notAuthorized: 'You are not authorized to download this file.',
  notFound: 'File not found',
  rangeNotSatisfiable: 'Requested range not satisfiable',
} as const;

/**
 * A downloadable file's name as requested: letters, digits, `_` and `-`, with dots only between
 * such runs. Anything else (`..`, slashes, backslashes, NUL, a leading dot) is refused before the
 * file system is touched.
 */
export const DOWNLOAD_NAME_PATTERN = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
export const DOWNLOAD_NAME_MAX_LENGTH = 200;
