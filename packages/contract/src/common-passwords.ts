// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the ambient types of the list must travel with this file into every project that compiles it (server, web)
/// <reference path="./zxcvbn-passwords.d.ts" />
import rankedByUse from '@zxcvbn-ts/language-common/dist/passwords.json.mjs';

/**
 * The most used passwords are refused on sign-up, change and reset (PWD-COMMON-1). The list is
 * zxcvbn-ts's (MIT, from leaked-password corpora, ranked by how often each was used), shipped with
 * the code: nothing is fetched at run time. Kept out of the package's main entry, so only what
 * asks for it pays for its 49 000 entries.
 */
export const COMMON_PASSWORD_COUNT = 10_000;

/**
 * The `COMMON_PASSWORD_COUNT` most used passwords, lower-cased (the check ignores case). With
 * `minLength`, only those a person could still type past the length rule: the web meter's list.
 */
export function commonPasswords(minLength = 0): string[] {
  return rankedByUse
    .slice(0, COMMON_PASSWORD_COUNT)
    .map((password) => password.toLowerCase())
    .filter((password) => password.length >= minLength);
}
