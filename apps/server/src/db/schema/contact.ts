import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('contact_submissions_status_check', sql`${t.status} in ('new', 'read', 'replied', 'archived', 'spam')`),
    index('contact_submissions_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
    index('contact_submissions_status_created_at_idx').on(t.status, t.createdAt.desc()),
  ],
);
