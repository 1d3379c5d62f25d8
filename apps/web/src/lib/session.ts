/** Browser storage keys (WEB-STORAGE-1), word for word. */
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  user: 'user',
  selectedTenantId: 'selectedTenantId',
} as const;

/** What the app keeps of the signed-in user: at least id and is_superuser. */
export interface StoredUser {
  id: string;
  email?: string;
  full_name?: string | null;
  is_superuser: boolean;
}

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export function getAccessToken(): string | null {
  return storage()?.getItem(STORAGE_KEYS.accessToken) ?? null;
}

/** Marks <html> while someone is signed in: the account menu's CSS reads it (app/platform-ui.js). */
function markSignedIn(signedIn: boolean): void {
  if (typeof document !== 'undefined') document.documentElement.toggleAttribute('data-signed-in', signedIn);
}

export function setAccessToken(token: string): void {
  storage()?.setItem(STORAGE_KEYS.accessToken, token);
  markSignedIn(token !== '');
}

export function isLoggedIn(): boolean {
  const token = getAccessToken();
  return token !== null && token !== '';
}

/** The stored user, or null when absent or unparsable (a corrupt record grants nothing). */
export function getStoredUser(): StoredUser | null {
  const raw = storage()?.getItem(STORAGE_KEYS.user);
  if (raw === null || raw === undefined) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const record = value as Record<string, unknown>;
    if (typeof record.id !== 'string' || typeof record.is_superuser !== 'boolean') return null;
    return record as unknown as StoredUser;
  } catch {
    return null;
  }
}

export function setStoredUser(user: StoredUser): void {
  storage()?.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}

/** The tenant the user picked, sent as X-Tenant-ID on every call ("" when none). */
export function getSelectedTenantId(): string {
  return storage()?.getItem(STORAGE_KEYS.selectedTenantId) ?? '';
}

const tenantListeners = new Set<() => void>();

export function setSelectedTenantId(tenantId: string): void {
  if (tenantId === '') storage()?.removeItem(STORAGE_KEYS.selectedTenantId);
  else storage()?.setItem(STORAGE_KEYS.selectedTenantId, tenantId);
  for (const listener of tenantListeners) listener();
}

/** Runs `listener` whenever the selected tenant changes in this tab (for useSyncExternalStore). */
export function onSelectedTenantChange(listener: () => void): () => void {
  tenantListeners.add(listener);
  return () => tenantListeners.delete(listener);
}

const sessionClearedListeners = new Set<() => void>();

/**
 * Runs `listener` whenever the session is cleared. The query cache registers here, so the next
 * person in the same tab never sees the last one's data.
 */
export function onSessionCleared(listener: () => void): () => void {
  sessionClearedListeners.add(listener);
  return () => sessionClearedListeners.delete(listener);
}

/** Forgets the signed-in user (logout, deletion, a refused token), their tenant choice and their cached data. */
export function clearSession(): void {
  const store = storage();
  store?.removeItem(STORAGE_KEYS.accessToken);
  store?.removeItem(STORAGE_KEYS.user);
  store?.removeItem(STORAGE_KEYS.selectedTenantId);
  markSignedIn(false);
  for (const listener of sessionClearedListeners) listener();
}
