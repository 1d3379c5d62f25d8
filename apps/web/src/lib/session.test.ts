import { describe, expect, it } from 'vitest';
import {
  clearSession,
  getSelectedTenantId,
  getStoredUser,
  isLoggedIn,
  setAccessToken,
  setStoredUser,
} from './session.js';

describe('browser storage (SPEC.md section 3)', () => {
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

  it('clears token and user on logout but keeps the tenant choice', () => {
    setAccessToken('abc');
    setStoredUser({ id: 'u1', is_superuser: false });
    localStorage.setItem('selectedTenantId', 't1');
    clearSession();
    expect(isLoggedIn()).toBe(false);
    expect(getStoredUser()).toBeNull();
    expect(getSelectedTenantId()).toBe('t1');
  });
});
