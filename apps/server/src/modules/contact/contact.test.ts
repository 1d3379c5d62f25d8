import {
  authMessages,
  contactMessages,
  contactSubmissionMessages,
  userMessages,
  type ContactSubmission,
} from '@dataplatform/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  createUser,
  detailOf,
  generousRateLimits,
  type TestContext,
  type TestUser,
} from '../../../test/harness.js';
import { contactSubmissions, outbox } from '../../db/schema/index.js';
import { waitUntil } from '../../../test/wait.js';

const NOTIFY = 'team-inbox@example.test';
const CONTACT_BUDGET = 3;

const validForm = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  subject: 'Pricing question',
  message: 'How much does the data platform cost for 10 users?',
};

describe('contact', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let plain: TestUser;
  let ipCounter = 0;

  /** Each call comes from its own address unless one is given, so only the rate-limit test meets the budget. */
  const submit = (payload: Record<string, unknown>, ip = `10.1.0.${(ipCounter += 1)}`) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/contact/', payload, remoteAddress: ip });

  const rowsByEmail = (email: string) =>
    ctx.database.db.select().from(contactSubmissions).where(eq(contactSubmissions.email, email));

  const totalRows = async () => (await ctx.database.db.select({ n: count() }).from(contactSubmissions))[0]!.n;
  const outboxFor = async (recipient: string) =>
    (await ctx.database.db.select({ n: count() }).from(outbox).where(eq(outbox.recipient, recipient)))[0]!.n;

  beforeAll(async () => {
    ctx = await createTestContext({
      env: { CONTACT_NOTIFY_EMAIL: NOTIFY },
      config: { rateLimits: { ...generousRateLimits, contactPerIp: { max: CONTACT_BUDGET, windowMs: 60_000 } } },
    });
    admin = await createUser(ctx, { isSuperuser: true });
    plain = await createUser(ctx);
  });
  afterAll(() => ctx?.close());

  describe('POST /contact/', () => {
    it('stores the message before answering and notifies CONTACT_NOTIFY_EMAIL by mail', async () => {
      const email = 'first-sender@example.com';
      const response = await submit({
        ...validForm,
        name: '  Ada Lovelace ',
        email,
        company: 'Analytical Engines Ltd',
        phone: '+44 20 7946 0000',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ message: contactMessages.success });

      const [row] = await rowsByEmail(email);
      expect(row).toMatchObject({
        name: 'Ada Lovelace',
        company: 'Analytical Engines Ltd',
        phone: '+44 20 7946 0000',
        subject: validForm.subject,
        message: validForm.message,
        source: 'website',
        status: 'new',
      });

      const mail = await ctx.smtp.waitFor((m) => m.to.includes(NOTIFY) && m.text.includes(email));
      expect(mail.subject).toContain(validForm.subject);
      expect(mail.text).toContain('Ada Lovelace');
      expect(mail.text).toContain('Analytical Engines Ltd');
      expect(mail.text).toContain(validForm.message);
    });

    it('takes company and phone as optional and keeps a given source', async () => {
      const email = 'optional-fields@example.com';
      const response = await submit({ ...validForm, email, company: null, source: 'landing-page' });
      expect(response.statusCode).toBe(201);
      expect((await rowsByEmail(email))[0]).toMatchObject({ company: null, phone: null, source: 'landing-page' });
    });

    it('refuses each broken rule with its message and stores nothing', async () => {
      const before = await totalRows();
      const cases: [Record<string, unknown>, string][] = [
        [{ ...validForm, name: 'A' }, contactMessages.nameTooShort],
        [{ ...validForm, name: '  A  ' }, contactMessages.nameTooShort],
        [{ ...validForm, name: undefined }, contactMessages.nameTooShort],
        [{ ...validForm, name: 'n'.repeat(101) }, 'Name must be at most 100 characters'],
        [{ ...validForm, email: 'not-an-email' }, contactMessages.emailInvalid],
        [{ ...validForm, email: undefined }, contactMessages.emailInvalid],
        [{ ...validForm, subject: 'Hey' }, contactMessages.subjectTooShort],
        [{ ...validForm, subject: 's'.repeat(201) }, 'Subject must be at most 200 characters'],
        [{ ...validForm, message: 'Too short' }, contactMessages.messageTooShort],
        [{ ...validForm, message: 'm'.repeat(5001) }, 'Message must be at most 5000 characters'],
        [{ ...validForm, company: 'c'.repeat(201) }, 'Company must be at most 200 characters'],
        [{ ...validForm, phone: 'p'.repeat(51) }, 'Phone must be at most 50 characters'],
      ];
      for (const [payload, message] of cases) {
        const response = await submit(payload);
        expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(422);
        expect(detailOf(response)).toBe(message);
      }
      const minimal = await submit({ ...validForm, name: 'Al', subject: 'Hello', message: '0123456789' });
      expect(minimal.statusCode).toBe(201);
      expect(await totalRows()).toBe(before + 1);
    });

    it('answers a filled honeypot like any message, stores it as spam and notifies no one', async () => {
      const email = 'robot@example.com';
      const notificationsBefore = await outboxFor(NOTIFY);
      const response = await submit({ ...validForm, email, website: 'https://spam.example' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ message: contactMessages.success });
      expect((await rowsByEmail(email))[0]?.status).toBe('spam');
      expect(await outboxFor(NOTIFY)).toBe(notificationsBefore);
    });

    it('limits messages per address with a 429 and a detail', async () => {
      const ip = '10.9.9.9';
      for (let sent = 0; sent < CONTACT_BUDGET; sent += 1) {
        expect((await submit({ ...validForm, email: `burst${sent}@example.com` }, ip)).statusCode).toBe(201);
      }
      const limited = await submit({ ...validForm, email: 'burst-over@example.com' }, ip);
      expect(limited.statusCode).toBe(429);
      expect(detailOf(limited)).toBe(authMessages.tooManyRequests);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(await rowsByEmail('burst-over@example.com')).toEqual([]);

      expect((await submit({ ...validForm, email: 'other-ip@example.com' }, '10.9.9.10')).statusCode).toBe(201);
    });

    it('loses nothing while SMTP refuses: the mail goes out once it accepts again', async () => {
      const email = 'while-smtp-down@example.com';
      ctx.smtp.state.accepting = false;
      const rejectedBefore = ctx.smtp.state.rejected;
      try {
        const response = await submit({ ...validForm, email });
        expect(response.statusCode).toBe(201);
        expect(await rowsByEmail(email)).toHaveLength(1);
        await waitUntil(() => ctx.smtp.state.rejected > rejectedBefore);
        expect(ctx.smtp.received.some((m) => m.text.includes(email))).toBe(false);
      } finally {
        ctx.smtp.state.accepting = true;
      }
      // The retry is due on the service clock, which the test moves past the backoff.
      ctx.clock.advance(60_000);
      const mail = await ctx.smtp.waitFor((m) => m.to.includes(NOTIFY) && m.text.includes(email));
      expect(mail.subject).toContain(validForm.subject);
    });
  });

  describe('GET /contact/ and PATCH /contact/{id}/status', () => {
    const list = (query: string, user: TestUser | null = admin) =>
      ctx.app.inject({ method: 'GET', url: `/api/v1/contact/${query}`, ...(user ? { headers: user.headers } : {}) });
    const setStatus = (id: string, query: string, user: TestUser | null = admin) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/contact/${id}/status${query}`,
        ...(user ? { headers: user.headers } : {}),
      });

    let older: ContactSubmission;
    let newer: ContactSubmission;

    beforeAll(async () => {
      ctx.clock.advance(60_000);
      await submit({ ...validForm, email: 'older@example.com' });
      ctx.clock.advance(60_000);
      await submit({ ...validForm, email: 'newer@example.com' });
      const { data } = (await list('?limit=2')).json<{ data: ContactSubmission[] }>();
      [newer, older] = data as [ContactSubmission, ContactSubmission];
    });

    it('lists messages newest first as {data, count}, with skip and limit', async () => {
      expect(newer.email).toBe('newer@example.com');
      expect(older.email).toBe('older@example.com');
      const all = (await list('?limit=1000')).json<{ data: ContactSubmission[]; count: number }>();
      expect(all.count).toBe(await totalRows());
      expect(all.data).toHaveLength(all.count);
      const stamps = all.data.map((s) => s.created_at);
      expect([...stamps].sort().reverse()).toEqual(stamps);
      expect((await list('?skip=1&limit=1')).json()).toEqual({ data: [older], count: all.count });
    });

    it('filters by status', async () => {
      const spam = (await list('?status=spam')).json<{ data: ContactSubmission[]; count: number }>();
      expect(spam.count).toBeGreaterThan(0);
      expect(spam.data.every((s) => s.status === 'spam')).toBe(true);
      const bad = await list('?status=deleted');
      expect(bad.statusCode).toBe(422);
    });

    it('sets a status and refuses an unknown one with a 422', async () => {
      const updated = await setStatus(newer.id, '?status=read');
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toEqual({ ...newer, status: 'read' });
      const read = (await list('?status=read')).json<{ data: ContactSubmission[] }>();
      expect(read.data.map((s) => s.id)).toContain(newer.id);

      for (const status of ['replied', 'archived', 'spam', 'new']) {
        expect((await setStatus(older.id, `?status=${status}`)).json<ContactSubmission>().status).toBe(status);
      }
      for (const query of ['?status=deleted', '?status=', '']) {
        const response = await setStatus(older.id, query);
        expect(response.statusCode, query).toBe(422);
      }
      expect((await rowsByEmail('older@example.com'))[0]?.status).toBe('new');

      const audit = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/audit/?target_type=contact_submission&target_id=${newer.id}`,
        headers: admin.headers,
      });
      expect(audit.json<{ data: unknown[] }>().data).toEqual([
        expect.objectContaining({
          action: 'contact.status.update',
          actor_id: admin.id,
          before: { status: 'new' },
          after: { status: 'read' },
        }),
      ]);
    });

    it('answers 404 for an unknown message and 422 for a malformed id', async () => {
      const unknown = await setStatus('00000000-0000-4000-8000-000000000000', '?status=read');
      expect(unknown.statusCode).toBe(404);
      expect(detailOf(unknown)).toBe(contactSubmissionMessages.notFound);
      expect((await setStatus('nope', '?status=read')).statusCode).toBe(422);
    });

    it('needs contact:read to list and contact:write to change; anonymous callers get 401', async () => {
      for (const response of [await list('', plain), await setStatus(newer.id, '?status=archived', plain)]) {
        expect(response.statusCode).toBe(403);
        expect(detailOf(response)).toBe(userMessages.notEnoughPrivileges);
      }
      expect((await list('', null)).statusCode).toBe(401);
      expect((await setStatus(newer.id, '?status=archived', null)).statusCode).toBe(401);
      expect((await rowsByEmail('newer@example.com'))[0]?.status).toBe('read');
    });
  });
});
