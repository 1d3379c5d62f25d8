import { and, eq } from 'drizzle-orm';
import { auditLog } from '../src/db/schema/index.js';
import type { TestContext } from './harness.js';

/** The requests and bodies the user tests (modules/users/*.test.ts) share. */
export interface UserBody {
  id: string;
  email: string;
  full_name: string | null;
  is_active: boolean;
  is_superuser: boolean;
  email_verified: boolean;
  created_at: string;
}

export const MISSING = Symbol('missing');
/** A valid sign-up body; an override of MISSING leaves that field out. */
export function signupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    email: `new-${Math.random().toString(36).slice(2, 10)}@example.com`,
    password: 'long-enough-1',
    confirm_password: 'long-enough-1',
    full_name: 'New Person',
    ...overrides,
  };
  for (const [key, value] of Object.entries(body)) if (value === MISSING) delete body[key];
  return body;
}

/** Requests on `ctx`'s app (filled in by useTestContext's beforeAll, so call them inside tests). */
export function userRequests(ctx: TestContext) {
  const signup = (payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/users/signup', payload: payload as object });
  const me = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/api/v1/users/me', headers });
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string> = {},
    payload?: object,
  ) => ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  return { signup, me, call };
}

/** The audit actions done to a user (as the target), the oldest first. */
export async function userAuditActions(ctx: TestContext, userId: string): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.targetId, userId), eq(auditLog.targetType, 'user')))
    .orderBy(auditLog.id);
  return rows.map((row) => row.action);
}
