import { expect } from 'vitest';
import type { TestContext } from './harness.js';
import { isRecoveryMailTo, mailAfter, resetTokenFrom } from './mail.js';

/** The requests the auth tests (modules/auth/*.test.ts) send again and again. */
export const MINUTE = 60_000;

export function recover(ctx: TestContext, email: string, remoteAddress?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/password-recovery/${encodeURIComponent(email)}`,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

export function reset(ctx: TestContext, token: string, newPassword: string, remoteAddress?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/reset-password/',
    payload: { token, new_password: newPassword },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

export function testToken(ctx: TestContext, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'POST', url: '/api/v1/login/test-token', headers });
}

/** Asks for a recovery mail and answers the token of the link it carries. */
export async function mailedResetToken(ctx: TestContext, email: string): Promise<string> {
  const mail = await mailAfter(ctx, isRecoveryMailTo(email), async () => {
    const response = await recover(ctx, email);
    expect(response.statusCode).toBe(200);
  });
  return resetTokenFrom(ctx, mail.text);
}

export function expectUnauthorized(response: Awaited<ReturnType<typeof testToken>>) {
  expect(response.statusCode).toBe(401);
  const body = response.json<{ detail: unknown }>();
  expect(typeof body.detail).toBe('string');
  expect(body.detail).not.toBe('');
  expect(response.headers['www-authenticate']).toBe('Bearer');
}
