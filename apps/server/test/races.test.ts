import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema/index.js';
import { createUser, useTestContext } from './harness.js';
import { isRecoveryMailTo, mailAfter, resetTokenFrom } from './mail.js';

/**
 * Concurrent requests on the same records. On a PostgreSQL server (TEST_DATABASE_URL) they really
 * interleave across the pool's connections; on PGlite they are serialised, and the answers must be
 * the same. Never a 5xx; exactly one winner where only one can win.
 */
const WAYS = 10;

interface Resource {
  name: string;
  create(index: number): Promise<string>;
  update: { method: 'PUT' | 'PATCH'; url: (id: string) => string; body: (index: number) => object };
  remove: (id: string) => string;
}

describe('races', () => {
  const { ctx, admin } = useTestContext();

  async function post(url: string, payload: object): Promise<string> {
    const response = await ctx.app.inject({ method: 'POST', url, headers: admin.headers, payload });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json<{ id: string }>().id;
  }

  const tag = () => Math.random().toString(36).slice(2, 8);
  const resources: Resource[] = [
    {
      name: 'user',
      create: (i) => post('/api/v1/users/', { email: `race-${i}-${tag()}@example.com`, password: 'race-password-1' }),
      update: { method: 'PATCH', url: (id) => `/api/v1/users/${id}`, body: (i) => ({ full_name: `Renamed ${i}` }) },
      remove: (id) => `/api/v1/users/${id}`,
    },
    {
      name: 'role',
      create: (i) => post('/api/v1/authorization/roles', { name: `race-role-${i}-${tag()}` }),
      update: {
        method: 'PUT',
        url: (id) => `/api/v1/authorization/roles/${id}`,
        body: (i) => ({ name: `race-role-renamed-${i}-${tag()}` }),
      },
      remove: (id) => `/api/v1/authorization/roles/${id}`,
    },
    {
      name: 'permission',
      create: (i) => post('/api/v1/authorization/permissions', { name: `race:perm-${i}-${tag()}` }),
      update: {
        method: 'PUT',
        url: (id) => `/api/v1/authorization/permissions/${id}`,
        body: (i) => ({ description: `changed ${i}` }),
      },
      remove: (id) => `/api/v1/authorization/permissions/${id}`,
    },
    {
      name: 'tenant',
      create: (i) => post('/api/v1/tenants/', { name: `Race tenant ${i} ${tag()}` }),
      update: { method: 'PUT', url: (id) => `/api/v1/tenants/${id}`, body: (i) => ({ description: `changed ${i}` }) },
      remove: (id) => `/api/v1/tenants/${id}`,
    },
    {
      name: 'plan',
      create: (i) =>
        post('/api/v1/subscriptions/plans', {
          name: `Race plan ${i} ${tag()}`,
          description: 'Raced',
          price: '9.99',
          billing_period: 'monthly',
          features: [],
        }),
      update: {
        method: 'PATCH',
        url: (id) => `/api/v1/subscriptions/plans/${id}`,
        body: (i) => ({ description: `changed ${i}` }),
      },
      remove: (id) => `/api/v1/subscriptions/plans/${id}`,
    },
  ];

  for (const resource of resources) {
    it(`${resource.name}: ${WAYS} updates racing ${WAYS} deletes of the same records answer 2xx or 404, never 5xx`, async () => {
      const ids = await Promise.all(Array.from({ length: WAYS }, (_, i) => resource.create(i)));
      const answers = await Promise.all(
        ids.flatMap((id, i) => [
          ctx.app.inject({
            method: resource.update.method,
            url: resource.update.url(id),
            headers: admin.headers,
            payload: resource.update.body(i),
          }),
          ctx.app.inject({ method: 'DELETE', url: resource.remove(id), headers: admin.headers }),
        ]),
      );
      const updates = answers.filter((_, index) => index % 2 === 0);
      const deletes = answers.filter((_, index) => index % 2 === 1);
      for (const answer of updates) expect([200, 404], answer.body).toContain(answer.statusCode);
      for (const answer of deletes) expect(answer.statusCode, answer.body).toBeLessThan(300);

      // And one record hit by many at once: exactly one delete wins, the rest and late updates 404.
      const [id] = await Promise.all([resource.create(WAYS)]);
      const burst = await Promise.all(
        Array.from({ length: WAYS }, (_, i) =>
          i % 2 === 0
            ? ctx.app.inject({ method: 'DELETE', url: resource.remove(id), headers: admin.headers })
            : ctx.app.inject({
                method: resource.update.method,
                url: resource.update.url(id),
                headers: admin.headers,
                payload: resource.update.body(i),
              }),
        ),
      );
      const removed = burst.filter((answer, i) => i % 2 === 0 && answer.statusCode < 300);
      expect(burst.filter((answer) => answer.statusCode >= 500)).toEqual([]);
      expect(removed).toHaveLength(1);
      for (const answer of burst) expect([200, 204, 404], answer.body).toContain(answer.statusCode);
    });
  }

  it(`${WAYS} creates of the same role and tenant name: exactly one wins, the others 409`, async () => {
    for (const [url, payload] of [
      ['/api/v1/authorization/roles', { name: `same-role-${tag()}` }],
      ['/api/v1/tenants/', { name: `Same tenant ${tag()}` }],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: WAYS }, () => ctx.app.inject({ method: 'POST', url, headers: admin.headers, payload })),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(
        statuses.filter((status) => status < 300),
        url,
      ).toHaveLength(1);
      expect(
        statuses.filter((status) => status === 409),
        url,
      ).toHaveLength(WAYS - 1);
    }
  });

  it(`${WAYS} sign-ups with the same address: one account, the same answer to all`, async () => {
    const email = `same-signup-${tag()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: WAYS }, () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/users/signup',
          payload: {
            email,
            password: 'same-signup-password-1',
            confirm_password: 'same-signup-password-1',
            full_name: 'Same Signup',
          },
        }),
      ),
    );
    // Sign-up answers every address alike (no account enumeration): count the accounts instead.
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 201));
    expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it(`a reset link used ${WAYS} times at once works exactly once`, async () => {
    const user = await createUser(ctx);
    const mail = await mailAfter(ctx, isRecoveryMailTo(user.email), () =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/password-recovery/${encodeURIComponent(user.email)}` }),
    );
    const token = resetTokenFrom(ctx, mail.text);
    const answers = await Promise.all(
      Array.from({ length: WAYS }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/v1/reset-password/',
          payload: { token, new_password: `raced-password-${i}` },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(WAYS - 1);
  });
});
