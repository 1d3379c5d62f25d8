import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

/** Messages from the public contact form. Honeypot hits are kept too, with status `spam`. */
export const contactSubmissions = pgTable(
  'contact_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company'),
    phone: text('phone'),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    source: text('source').notNull().default('website'),
    status: text('status', { enum: ['new', 'read', 'replied', 'archived', 'spam'] })
      .notNull()
      .default('new'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('contact_submissions_status_check', sql`${t.status} in ('new', 'read', 'replied', 'archived', 'spam')`),
    // Newest first is a backward scan of these. (The DESC NULLS LAST of the first version did not
    // match ORDER BY … DESC, which puts nulls first, so a page sorted the whole table.)
    index('contact_submissions_created_at_idx').on(t.createdAt, t.id),
    index('contact_submissions_status_created_at_idx').on(t.status, t.createdAt, t.id),
  ],
);
