import { messages, userMessages } from '@dataplatform/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, detailOf, login, loginRequest, useTestContext } from '../../../test/harness.js';
import { mailAfter } from '../../../test/mail.js';
import { MISSING, signupBody, type UserBody, userRequests } from '../../../test/user-requests.js';
import { users } from '../../db/schema/index.js';

describe('sign-up', () => {
  const { ctx } = useTestContext();
  const { signup, me } = userRequests(ctx);

  describe('POST /users/signup', () => {
    it('creates an active, non-superuser account that can log in, and mails a welcome', async () => {
      const body = signupBody({ email: 'Fresh.Person@Example.COM', is_superuser: true, is_active: false });
      const mail = await mailAfter(
        ctx,
        (m) => m.to.includes('fresh.person@example.com'),
        async () => {
          const response = await signup(body);
          expect(response.statusCode).toBe(201);
          expect(response.json()).toEqual({ message: userMessages.signupReceived });
        },
      );
      expect(mail.subject).toBe('Welcome to Data Platform');
      expect(mail.text).toContain('New Person');

      const token = await login(ctx, 'fresh.person@example.com', 'long-enough-1');
      const profile = await me(bearer(token));
      expect(profile.json<UserBody>()).toMatchObject({
        email: 'fresh.person@example.com',
        full_name: 'New Person',
        is_active: true,
        is_superuser: false,
      });
    });

    it.each([
      ['a missing email', { email: MISSING }, 'Email is required'],
      ['an empty email', { email: '' }, 'Email is required'],
      ['a malformed email', { email: 'not-an-email' }, 'Invalid email address'],
      ['a missing password', { password: MISSING }, 'Password is required'],
      ['an empty password', { password: '', confirm_password: '' }, 'Password is required'],
      [
        'a short password',
        { password: 'short12', confirm_password: 'short12' },
        'Password must be at least 8 characters',
      ],
      ['a missing confirmation', { confirm_password: MISSING }, 'Password confirmation is required'],
      ['an empty confirmation', { confirm_password: '' }, 'Password confirmation is required'],
      ['a different confirmation', { confirm_password: 'long-enough-2' }, 'The passwords do not match'],
      ['a missing full name', { full_name: MISSING }, 'Full Name is required'],
      ['a blank full name', { full_name: '   ' }, 'Full Name is required'],
    ])('refuses %s with its AUTH-VALID or AUTH-SIGNUP-2 message', async (_case, overrides, message) => {
      const body = signupBody(overrides);
      const response = await signup(body);
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe(message);
      if (typeof body.email === 'string' && body.email.includes('@')) {
        const rows = await ctx.database.db.select().from(users).where(eq(users.email, body.email));
        expect(rows).toHaveLength(0);
      }
    });

    it('puts the field of each problem in loc', async () => {
      const response = await signup(signupBody({ confirm_password: 'long-enough-2' }));
      expect(response.json()).toEqual({
        detail: [{ loc: ['body', 'confirm_password'], msg: 'The passwords do not match', type: 'custom' }],
        code: 'validation_failed',
      });
    });

    it('answers a registered address exactly as a new one, and mails its owner instead', async () => {
      const owner = await createUser(ctx, { fullName: 'Original Owner' });
      const fresh = await signup(signupBody({ email: 'somebody-new@example.com' }));
      const mail = await mailAfter(
        ctx,
        (m) => m.to.includes(owner.email),
        async () => {
          const again = await signup(
            signupBody({
              email: owner.email.toUpperCase(),
              password: 'attacker-password',
              confirm_password: 'attacker-password',
              full_name: 'Someone Else',
            }),
          );
          expect(again.statusCode).toBe(fresh.statusCode);
          expect(again.body).toBe(fresh.body);
        },
      );
      expect(mail.subject.toLowerCase()).toContain('sign-up attempt');
      expect(mail.text).toContain(`${ctx.config.frontendHost}/recover-password`);
      expect(
        ctx.smtp.received.filter((m) => m.to.includes(owner.email) && m.subject.startsWith('Welcome')),
      ).toHaveLength(0);

      // The account is untouched: same password, same name, still one row.
      expect((await loginRequest(ctx, owner.email, 'attacker-password')).statusCode).toBe(400);
      expect((await me(owner.headers)).json<UserBody>().full_name).toBe('Original Owner');
      const rows = await ctx.database.db.select().from(users).where(eq(users.email, owner.email));
      expect(rows).toHaveLength(1);
    });

    it('keeps one account when the same new address signs up twice at once', async () => {
      const email = 'twice-at-once@example.com';
      const [first, second] = await Promise.all([signup(signupBody({ email })), signup(signupBody({ email }))]);
      expect(first.statusCode).toBe(201);
      expect(second.body).toBe(first.body);
      const rows = await ctx.database.db.select().from(users).where(eq(users.email, email));
      expect(rows).toHaveLength(1);
    });
  });

  describe('POST /users/signup refuses the most common passwords (PWD-COMMON-1)', () => {
    it.each(['12345678', 'password', 'PASSWORD1', 'qwerty123', 'trustno1'])(
      'refuses %s on the password field and creates nothing',
      async (common) => {
        const email = `common-${common.toLowerCase()}@example.com`;
        const response = await signup(signupBody({ email, password: common, confirm_password: common }));
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({
          detail: [{ loc: ['body', 'password'], msg: messages.passwordTooCommon }],
          code: 'validation_failed',
        });
        expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);
      },
    );

    it('takes a password that is not on the list', async () => {
      expect(
        (
          await signup(
            signupBody({
              email: 'uncommon@example.com',
              password: 'quarterly-ledger-77',
              confirm_password: 'quarterly-ledger-77',
            }),
          )
        ).statusCode,
      ).toBe(201);
    });
  });
});
