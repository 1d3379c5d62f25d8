import { describe, expect, it } from 'vitest';
import { SandboxCardSchema } from './billing.js';
import { PermissionUpdateSchema, RoleCreateSchema } from './authz.js';

/** JSON bodies are validated as the OpenAPI document types them: nothing is coerced. */
describe('no coercion of JSON bodies', () => {
  const card = { number: '4242424242424242', exp_month: 5, exp_year: 2035, cvc: '123' };

  it('takes the card expiry as integers only', () => {
    expect(SandboxCardSchema.safeParse(card).success).toBe(true);
    for (const exp_month of [true, '5', [[1]], 5.5, null]) {
      expect(SandboxCardSchema.safeParse({ ...card, exp_month }).success, JSON.stringify(exp_month)).toBe(false);
    }
    expect(SandboxCardSchema.safeParse({ ...card, exp_year: '2035' }).success).toBe(false);
  });

  it('takes the ignored created_by / updated_by as strings or null, as documented', () => {
    expect(RoleCreateSchema.safeParse({ name: 'x', created_by: 'u1', updated_by: null }).success).toBe(true);
    expect(PermissionUpdateSchema.safeParse({ created_by: false }).success).toBe(false);
    expect(PermissionUpdateSchema.safeParse({ updated_by: [] }).success).toBe(false);
  });
});
