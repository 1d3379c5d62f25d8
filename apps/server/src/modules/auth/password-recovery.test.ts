import { authMessages, messages, RESET_TOKEN_TTL_MINUTES, userMessages } from '@dataplatform/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  expectUnauthorized,
  mailedResetToken,
  MINUTE,
  recover,
  reset,
  testToken,
} from '../../../test/auth-requests.js';
import { bearer, createUser, detailOf, login, loginRequest, useTestContext } from '../../../test/harness.js';
import { isRecoveryMailTo, mailAfter, resetTokenFrom } from '../../../test/mail.js';
import { outbox, passwordRecoveryRequests, passwordResetTokens } from '../../db/schema/index.js';

describe('password recovery and reset', () => {
  const { ctx, admin } = useTestContext();

  describe('password recovery', () => {
    it('answers the same for a known, an unknown and an inactive address, and mails only the known active one', async () => {
      const active = await createUser(ctx);
      const inactive = await createUser(ctx, { isActive: false });
      const unknownEmail = 'never-registered@example.com';

      const forUnknown = await recover(ctx, unknownEmail);
      const forInactive = await recover(ctx, inactive.email);
      const mail = await mailAfter(ctx, isRecoveryMailTo(active.email), async () => {
        const forActive = await recover(ctx, active.email);
        expect(forActive.statusCode).toBe(200);
        expect(forUnknown.statusCode).toBe(200);
        expect(forInactive.statusCode).toBe(200);
        expect(forUnknown.body).toBe(forActive.body);
        expect(forInactive.body).toBe(forActive.body);
      });

      const token = resetTokenFrom(ctx, mail.text);
      expect(mail.text).toContain(`https://app.example.test/reset-password?token=`);
      expect(resetTokenFrom(ctx, mail.html)).toBe(token);
      // At least 128 random bits, URL-safe.
      expect(token).toMatch(/^[A-Za-z0-9_-]{22,}$/);

      // The outbox sends in order: the active user's mail arriving means the others were never queued.
      const recipients = ctx.smtp.received.flatMap((m) => m.to);
      expect(recipients).not.toContain(unknownEmail);
      expect(recipients).not.toContain(inactive.email);
      const queued = await ctx.database.db.select({ recipient: outbox.recipient }).from(outbox);
      expect(queued.map((row) => row.recipient)).not.toContain(inactive.email);
      expect(queued.map((row) => row.recipient)).not.toContain(unknownEmail);

      // Stored hashed: the database never holds the token itself.
      const stored = await ctx.database.db
        .select({ tokenHash: passwordResetTokens.tokenHash })
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.userId, active.id));
      expect(stored.length).toBeGreaterThan(0);
      for (const row of stored) expect(row.tokenHash).not.toContain(token);
    });

    it('does the same work for a known and an unknown address before answering: one queued request', async () => {
      const known = await createUser(ctx);
      const unknownEmail = 'nobody-here@example.com';
      // Keeps the mail worker from taking requests off the queue, so what the answer left behind shows.
      await ctx.database.db.execute(sql`
        CREATE FUNCTION test_hold_recovery_queue() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'held by the test'; END $$`);
      await ctx.database.db.execute(sql`
        CREATE TRIGGER test_hold_recovery_queue BEFORE DELETE ON password_recovery_requests
        FOR EACH ROW EXECUTE FUNCTION test_hold_recovery_queue()`);
      try {
        const forKnown = await recover(ctx, known.email);
        const forUnknown = await recover(ctx, unknownEmail);
        expect(forKnown.statusCode).toBe(200);
        expect(forUnknown.body).toBe(forKnown.body);
        const queued = await ctx.database.db
          .select({ email: passwordRecoveryRequests.email, attempts: passwordRecoveryRequests.attempts })
          .from(passwordRecoveryRequests)
          .where(inArray(passwordRecoveryRequests.email, [known.email, unknownEmail]));
        expect(queued).toHaveLength(2);
        expect(queued.every((row) => row.attempts === 0)).toBe(true);
        // Nothing about the account was touched while answering.
        const tokens = await ctx.database.db
          .select()
          .from(passwordResetTokens)
          .where(eq(passwordResetTokens.userId, known.id));
        expect(tokens).toHaveLength(0);
      } finally {
        await ctx.database.db.execute(sql`DROP TRIGGER test_hold_recovery_queue ON password_recovery_requests`);
      }
      // Released, the worker mails the known address and drops the other request.
      await ctx.app.services.outbox.drain();
      await ctx.smtp.waitFor(isRecoveryMailTo(known.email));
      const left = await ctx.database.db
        .select()
        .from(passwordRecoveryRequests)
        .where(inArray(passwordRecoveryRequests.email, [known.email, unknownEmail]));
      expect(left).toHaveLength(0);
      expect(ctx.smtp.received.flatMap((mail) => mail.to)).not.toContain(unknownEmail);
    });

    it('finds the account whatever the letter case of the address', async () => {
      const user = await createUser(ctx);
      const mail = await mailAfter(ctx, isRecoveryMailTo(user.email), () => recover(ctx, user.email.toUpperCase()));
      expect(resetTokenFrom(ctx, mail.text).length).toBeGreaterThanOrEqual(22);
    });

    it('refuses an address that is not an e-mail with a 422', async () => {
      const response = await recover(ctx, 'not-an-email');
      expect(response.statusCode).toBe(422);
      expect(detailOf(response)).toBe('Invalid email address');
    });
  });

  describe('POST /reset-password/', () => {
    it('sets the new password once: the link cannot be used a second time', async () => {
      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      const first = await reset(ctx, token, 'brand-new-password-1');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: authMessages.passwordUpdated });
      expect((await loginRequest(ctx, user.email, 'brand-new-password-1')).statusCode).toBe(200);
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(400);

      const second = await reset(ctx, token, 'another-password-2');
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual({ detail: authMessages.invalidResetToken, code: 'invalid_reset_token' });
      expect((await loginRequest(ctx, user.email, 'another-password-2')).statusCode).toBe(400);
    });

    it('refuses one of the most common passwords on the field, whatever its case, and keeps the link alive (PWD-COMMON-1)', async () => {
      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      for (const common of ['password1', 'Qwertyuiop', 'iloveyou']) {
        const refused = await reset(ctx, token, common);
        expect(refused.statusCode).toBe(422);
        expect(refused.json()).toMatchObject({
          detail: [{ loc: ['body', 'new_password'], msg: messages.passwordTooCommon }],
          code: 'validation_failed',
        });
      }
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(200);
      expect((await reset(ctx, token, 'brand-new-password-1')).statusCode).toBe(200);
    });

    it('revokes every session of the user', async () => {
      const user = await createUser(ctx);
      const secondToken = await login(ctx, user.email, user.password);
      const token = await mailedResetToken(ctx, user.email);
      expect((await reset(ctx, token, 'brand-new-password-1')).statusCode).toBe(200);
      expectUnauthorized(await testToken(ctx, user.headers));
      expectUnauthorized(await testToken(ctx, bearer(secondToken)));
    });

    it('works up to 60 minutes after the mail and not after', async () => {
      expect(RESET_TOKEN_TTL_MINUTES).toBe(60);
      const early = await createUser(ctx);
      const earlyToken = await mailedResetToken(ctx, early.email);
      const late = await createUser(ctx);
      const lateToken = await mailedResetToken(ctx, late.email);

      ctx.clock.advance(59 * MINUTE);
      expect((await reset(ctx, earlyToken, 'brand-new-password-1')).statusCode).toBe(200);

      ctx.clock.advance(1 * MINUTE + 1000);
      const expired = await reset(ctx, lateToken, 'brand-new-password-1');
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual({ detail: authMessages.invalidResetToken, code: 'invalid_reset_token' });
      expect((await loginRequest(ctx, late.email, late.password)).statusCode).toBe(200);
    });

    it('is dead after a later password change', async () => {
      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      const change = await ctx.app.inject({
        method: 'PATCH',
        url: '/api/v1/users/me/password',
        headers: user.headers,
        payload: {
          current_password: user.password,
          new_password: 'changed-password-1',
          confirm_password: 'changed-password-1',
        },
      });
      expect(change.statusCode).toBe(200);
      const response = await reset(ctx, token, 'brand-new-password-1');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: authMessages.invalidResetToken, code: 'invalid_reset_token' });
      expect((await loginRequest(ctx, user.email, 'changed-password-1')).statusCode).toBe(200);
    });

    it('is dead once a newer recovery mail has been sent', async () => {
      const user = await createUser(ctx);
      const older = await mailedResetToken(ctx, user.email);
      const newer = await mailedResetToken(ctx, user.email);
      expect(newer).not.toBe(older);
      expect((await reset(ctx, older, 'brand-new-password-1')).statusCode).toBe(400);
      expect((await reset(ctx, newer, 'brand-new-password-2')).statusCode).toBe(200);
      expect((await loginRequest(ctx, user.email, 'brand-new-password-2')).statusCode).toBe(200);
    });

    it('refuses a token that was never issued, and a too short new password', async () => {
      const forged = await reset(ctx, 'A'.repeat(43), 'brand-new-password-1');
      expect(forged.statusCode).toBe(400);
      expect(forged.json()).toEqual({ detail: authMessages.invalidResetToken, code: 'invalid_reset_token' });

      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      const short = await reset(ctx, token, 'short');
      expect(short.statusCode).toBe(422);
      expect(detailOf(short)).toBe('Password must be at least 8 characters');
      // The refused attempt did not spend the link.
      expect((await reset(ctx, token, 'brand-new-password-1')).statusCode).toBe(200);
    });

    it('refuses the link of a user deactivated since the mail', async () => {
      const user = await createUser(ctx);
      const token = await mailedResetToken(ctx, user.email);
      const deactivate = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/users/${user.id}`,
        headers: admin.headers,
        payload: { is_active: false },
      });
      expect(deactivate.statusCode).toBe(200);
      const response = await reset(ctx, token, 'brand-new-password-1');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: 'Inactive user', code: 'inactive_user' });
    });
  });

  describe('POST /password-recovery-html-content/{email}', () => {
    const preview = (email: string, headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/password-recovery-html-content/${encodeURIComponent(email)}`,
        headers,
      });

    it('shows a superuser the recovery mail, whose link cannot reset anything', async () => {
      const user = await createUser(ctx);
      const realToken = await mailedResetToken(ctx, user.email);
      const response = await preview(user.email, admin.headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<html');
      const previewToken = resetTokenFrom(ctx, response.body);
      expect(previewToken).not.toBe(realToken);

      const attempt = await reset(ctx, previewToken, 'brand-new-password-1');
      expect(attempt.statusCode).toBe(400);
      expect((await loginRequest(ctx, user.email, user.password)).statusCode).toBe(200);
      // Previewing neither sent a mail nor spent the link the user really got.
      expect(ctx.smtp.received.filter(isRecoveryMailTo(user.email))).toHaveLength(1);
      expect((await reset(ctx, realToken, 'brand-new-password-1')).statusCode).toBe(200);
    });

    it('is refused to plain users (403) and anonymous callers (401)', async () => {
      const user = await createUser(ctx);
      const asUser = await preview(user.email, user.headers);
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toEqual({ detail: userMessages.notEnoughPrivileges, code: 'permission_denied' });
      expectUnauthorized(await preview(user.email));
    });

    it('answers 404 for an unknown address', async () => {
      const response = await preview('nobody-at-all@example.com', admin.headers);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: userMessages.notFound, code: 'not_found' });
    });
  });
});
