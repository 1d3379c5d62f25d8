import { messages } from '@dataplatform/contract';
import { fieldError } from './errors.js';

let commonPasswordSet: Promise<ReadonlySet<string>> | undefined;

/** Loaded on the first password set, not at start: most requests never need the list. */
function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswordSet ??= import('@dataplatform/contract/common-passwords').then(
    ({ commonPasswords }) => new Set(commonPasswords()),
  );
  return commonPasswordSet;
}

/**
 * Refuses one of the most used passwords (PWD-COMMON-1) with a 422 on the field that carried it, in
 * the shape of a schema failure, so the forms show it where the person typed it.
 */
export async function assertUncommonPassword(password: string, field: string): Promise<void> {
  if ((await loadCommonPasswords()).has(password.toLowerCase())) {
    throw fieldError(['body', field], messages.passwordTooCommon);
  }
}
