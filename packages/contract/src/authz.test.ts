import { describe, expect, it } from 'vitest';
import { authzMessages, IdSetSchema, PermissionCreateSchema, RoleCreateSchema, RoleUpdateSchema } from './authz.js';
import { DOWNLOAD_NAME_PATTERN } from './files.js';

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? undefined : result.error?.issues[0]?.message;
}

describe('role and permission forms (ADM-ROLES-3, ADM-PERMS-2)', () => {
  it.each([undefined, '', '   '])('a role name %j reads "Role name is required"', (name) => {
    expect(firstMessage(RoleCreateSchema.safeParse({ name }))).toBe(authzMessages.roleNameRequired);
  });

  it.each([undefined, '', '  '])('a permission name %j reads "Permission name is required"', (name) => {
    expect(firstMessage(PermissionCreateSchema.safeParse({ name }))).toBe(authzMessages.permissionNameRequired);
  });

  it('accepts the console body, author fields included, and trims the name', () => {
    const parsed = RoleCreateSchema.parse({
      name: '  support ',
      description: 'Answers customers',
      created_by: 'someone',
      updated_by: null,
    });
    expect(parsed.name).toBe('support');
  });

  it('lets an update leave the name out, but not blank it', () => {
    expect(RoleUpdateSchema.safeParse({ description: 'only this' }).success).toBe(true);
    expect(firstMessage(RoleUpdateSchema.safeParse({ name: '' }))).toBe(authzMessages.roleNameRequired);
  });

  it('takes assignment sets as arrays of ids', () => {
    expect(IdSetSchema.safeParse([]).success).toBe(true);
    expect(IdSetSchema.safeParse(['0b5f3c1e-0000-4000-8000-000000000000']).success).toBe(true);
    expect(IdSetSchema.safeParse(['x']).success).toBe(false);
    expect(IdSetSchema.safeParse({ ids: [] }).success).toBe(false);
  });
});

describe('download names', () => {
  it.each(['sales_report', 'report-2024', 'a.b', 'Q1_v2.final'])('accepts %s', (name) => {
    expect(DOWNLOAD_NAME_PATTERN.test(name)).toBe(true);
  });

  it.each(['', '.', '..', '.hidden', 'a..b', 'a/b', 'a\\b', '../x', 'a\0', 'a b', 'trailing.', '%2e%2e', 'é'])(
    'refuses %j',
    (name) => {
      expect(DOWNLOAD_NAME_PATTERN.test(name)).toBe(false);
    },
  );
});
