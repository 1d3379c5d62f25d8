import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ownerId, timestamptz } from './columns.js';
import { tenants } from './tenants.js';
import { users } from './users.js';

/**
 * Learn (issue 60): the lesson steps a person's last check found done in a tenant, one row per step.
 * Lessons are files that ship with the server (modules/learn/lessons), so `lesson` and `step` are
 * their slug and step id, not keys of a table; a lesson that goes leaves rows nothing reads.
 */
export const learnProgress = pgTable(
  'learn_progress',
  {
    userId: ownerId('user_id', () => users.id),
    tenantId: ownerId('tenant_id', () => tenants.id),
    lesson: text('lesson').notNull(),
    step: text('step').notNull(),
    doneAt: timestamptz('done_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.tenantId, t.lesson, t.step] }),
    check('learn_progress_lesson_check', sql`length(${t.lesson}) between 1 and 64`),
    check('learn_progress_step_check', sql`length(${t.step}) between 1 and 64`),
  ],
);
