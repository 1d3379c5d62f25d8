import { describe, expect, it } from 'vitest';
import {
  clearSession,
  getSelectedTenantId,
  getStoredUser,
  isLoggedIn,
  onSessionCleared,
  setAccessToken,
  setSelectedTenantId,
  setStoredUser,
} from './session.js';

describe('browser storage (WEB-STORAGE-1)', () => {
  it('uses the keys access_token, user and selectedTenantId', () => {
    setAccessToken('abc');
    setStoredUser({ id: 'u1', is_superuser: true });
    localStorage.setItem('selectedTenantId', 't1');
    expect(localStorage.getItem('access_token')).toBe('abc');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toEqual({ id: 'u1', is_superuser: true });
    expect(getSelectedTenantId()).toBe('t1');
    expect(isLoggedIn()).toBe(true);
  });

  it('reads an unparsable or incomplete user record as no user', () => {
    localStorage.setItem('user', '{not json');
    expect(getStoredUser()).toBeNull();
    localStorage.setItem('user', JSON.stringify({ id: 'u1', is_superuser: 'yes' }));
    expect(getStoredUser()).toBeNull();
    localStorage.setItem('user', 'null');
    expect(getStoredUser()).toBeNull();
  });

  // The next person in the same tab must not inherit the last one's tenant or cached data.
  it('clears token, user and tenant choice on logout, and tells its listeners', () => {
    setAccessToken('abc');
    setStoredUser({ id: 'u1', is_superuser: false });
    setSelectedTenantId('t1');
    let cleared = 0;
    const stop = onSessionCleared(() => cleared++);
    clearSession();
    stop();
    clearSession();
    expect(isLoggedIn()).toBe(false);
    expect(getStoredUser()).toBeNull();
    expect(getSelectedTenantId()).toBe('');
    expect(cleared).toBe(1);
  });

  it('stores an empty tenant choice as no key at all', () => {
    setSelectedTenantId('t1');
    setSelectedTenantId('');
    expect(localStorage.getItem('selectedTenantId')).toBeNull();
  });
});
