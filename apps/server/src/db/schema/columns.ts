import { timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

// The one way a timestamp column is declared: every point in time is a `timestamptz`, read as a Date.

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** When the row was made; the database fills it in when an insert leaves it out. */
export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** When the row last changed; writers set it, the database fills it in on insert. */
export const updatedAt = () => timestamptz('updated_at').notNull().defaultNow();

/** The row this one belongs to: a uuid that must be set, and the row goes when that one is deleted. */
export const ownerId = (name: string, owner: () => AnyPgColumn) =>
  uuid(name).notNull().references(owner, { onDelete: 'cascade' });
