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
      '/s/abc123',
      '/embed/4b0f0c56-7e0e-4c1e-9a43-3f4f1b2b9a10',
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
      '/s',
      '/s/',
      '/s//',
      '/s/abc/def',
      '/embed',
    ]) {
      expect(isWebAppPath(path), path).toBe(false);
    }
  });
});
