import { useEffect, useState } from 'react';

let commonPasswordSet: Promise<ReadonlySet<string>> | undefined;

/** The passwords the server refuses as too common (PWD-COMMON-1), in a chunk of their own. */
function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswordSet ??= import('virtual:common-passwords').then(({ default: passwords }) => new Set(passwords));
  return commonPasswordSet;
}

/**
 * Whether `password` is one the server will refuse as too common. False until the list has
 * arrived (it loads once something is typed, so a page that only shows the field does not pay for
 * it) and if it cannot load: the server still refuses, this only warns earlier.
 */
export function useIsCommonPassword(password: string): boolean {
  const [passwords, setPasswords] = useState<ReadonlySet<string>>();
  const typed = password !== '';
  useEffect(() => {
    if (!typed) return;
    let mounted = true;
    loadCommonPasswords().then(
      (loaded) => mounted && setPasswords(loaded),
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, [typed]);
  return passwords?.has(password.toLowerCase()) ?? false;
}
