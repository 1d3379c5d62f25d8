import type { Plugin } from 'vite';
import { commonPasswords } from '../../../packages/contract/src/common-passwords.js';
import { PASSWORD_MIN_LENGTH } from '../../../packages/contract/src/fields.js';

const MODULE_ID = 'virtual:common-passwords';
const RESOLVED_ID = `\0${MODULE_ID}`;

/**
 * `virtual:common-passwords`: the server's list of refused passwords (PWD-COMMON-1), cut at build
 * time to those long enough to pass the length rule (about 3 500 of 10 000), so the strength meter
 * can warn before submit from a small chunk instead of the whole 49 000-entry source list.
 */
export function commonPasswordsPlugin(): Plugin {
  return {
    name: 'common-passwords',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    load: (id) =>
      id === RESOLVED_ID ? `export default ${JSON.stringify(commonPasswords(PASSWORD_MIN_LENGTH))};` : undefined,
  };
}
