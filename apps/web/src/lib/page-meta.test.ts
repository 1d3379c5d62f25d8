import { describe, expect, it } from 'vitest';
import { NOT_FOUND_META, pageMetaFor } from './page-meta.js';

describe('pageMetaFor', () => {
  it('gives each page its own title, with or without a trailing slash', () => {
    expect(pageMetaFor('/about-us').title).toBe('About Us | Data Platform');
    expect(pageMetaFor('/login/').title).toBe('Log In | Data Platform');
  });

  it("gives every tab of a signed-in area the area's title", () => {
    expect(pageMetaFor('/settings/plans').title).toBe('Settings | Data Platform');
    expect(pageMetaFor('/admin/audit-log/').title).toBe('Admin Dashboard | Data Platform');
  });

  it('says "not found" for anything else, a look-alike of an area included', () => {
    expect(pageMetaFor('/settingsx/plans')).toBe(NOT_FOUND_META);
    expect(pageMetaFor('/nowhere')).toBe(NOT_FOUND_META);
  });
});
