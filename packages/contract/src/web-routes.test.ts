import { describe, expect, it } from 'vitest';
import { isWebAppPath } from './web-routes.js';

describe('isWebAppPath', () => {
  it('knows the pages and everything under the settings and admin areas', () => {
    for (const path of [
      '/',
      '/login',
      '/signup',
      '/studio',
      '/contact/',
      '/settings',
      '/settings/billing',
      '/admin/users',
    ]) {
      expect(isWebAppPath(path), path).toBe(true);
    }
  });

  it('knows nothing else, however close', () => {
    for (const path of [
      '/no-such-page',
      '/login/extra',
      '/settingsx',
      '/administrator',
      '/studio//',
      '/api/v1/users',
    ]) {
      expect(isWebAppPath(path), path).toBe(false);
    }
  });
});
