import { describe, expect, it } from 'vitest';
import { UpdatePasswordSchema, UserRegisterSchema } from './users.js';
import { EmailSchema, messages, PasswordSchema } from './fields.js';

/** The first message a form shows for a value, as the web client picks it. */
function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? undefined : result.error?.issues[0]?.message;
}

describe('field rules (AUTH-VALID-1, AUTH-VALID-2, AUTH-VALID-3, AUTH-SIGNUP-2)', () => {
  it.each([
    [undefined, messages.emailRequired],
    ['', messages.emailRequired],
    ['   ', messages.emailRequired],
    ['not-an-email', messages.emailInvalid],
    ['a@b', messages.emailInvalid],
    [`${'a'.repeat(250)}@example.com`, messages.emailInvalid],
  ])('email %j -> %s', (value, expected) => {
    expect(firstMessage(EmailSchema.safeParse(value))).toBe(expected);
  });

  it('normalises e-mails to trimmed lower case', () => {
    expect(EmailSchema.parse('  Alice@Example.COM ')).toBe('alice@example.com');
  });

  it.each([
    [undefined, messages.passwordRequired],
    ['', messages.passwordRequired],
    ['1234567', messages.passwordTooShort],
    ['x'.repeat(129), messages.passwordTooLong],
  ])('password %j -> %s', (value, expected) => {
    expect(firstMessage(PasswordSchema.safeParse(value))).toBe(expected);
  });

  it('accepts a password of exactly 8 characters', () => {
    expect(PasswordSchema.safeParse('12345678').success).toBe(true);
  });

  it('signup requires a full name of at least 3 characters and matching passwords', () => {
    const base = { email: 'a@example.com', password: 'password1', confirm_password: 'password1' };
    expect(firstMessage(UserRegisterSchema.safeParse({ ...base, full_name: '' }))).toBe(messages.fullNameRequired);
    expect(firstMessage(UserRegisterSchema.safeParse(base))).toBe(messages.fullNameRequired);
    expect(firstMessage(UserRegisterSchema.safeParse({ ...base, full_name: 'Al' }))).toBe(messages.fullNameTooShort);
    expect(
      firstMessage(UserRegisterSchema.safeParse({ ...base, full_name: 'Alice', confirm_password: 'password2' })),
    ).toBe(messages.passwordsDoNotMatch);
    expect(firstMessage(UserRegisterSchema.safeParse({ ...base, full_name: 'Alice', confirm_password: '' }))).toBe(
      messages.confirmationRequired,
    );
    expect(UserRegisterSchema.safeParse({ ...base, full_name: 'Alice' }).success).toBe(true);
  });

  it('password change puts the mismatch on confirm_password', () => {
    const result = UpdatePasswordSchema.safeParse({
      current_password: 'old-password',
      new_password: 'new-password',
      confirm_password: 'other-password',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['confirm_password']);
    expect(result.error?.issues[0]?.message).toBe(messages.passwordsDoNotMatch);
  });
});
