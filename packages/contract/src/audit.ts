import './zod-config.js';
import { z } from 'zod';
import { PaginationQuerySchema, pageOf } from './common.js';
import { type AUDIT_ACTIONS } from './audit-constants.js';

export * from './audit-constants.js';

/** @public Part of the contract for API clients, though no code of this repository names it. */
export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

const JsonObjectSchema = z.record(z.string(), z.unknown());

/** One row of the audit log: who did what to which thing, from where, and when. */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  actor_id: z.uuid().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: JsonObjectSchema.nullable(),
  after: JsonObjectSchema.nullable(),
  ip: z.string().nullable(),
  created_at: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditEntriesSchema = pageOf(AuditEntrySchema);
export type AuditEntries = z.infer<typeof AuditEntriesSchema>;

/** `GET /audit/`: newest first; every filter is optional and they combine with AND. */
export const AuditQuerySchema = PaginationQuerySchema.extend({
  actor_id: z.uuid({ error: 'Invalid id' }).optional(),
  target_type: z.string().trim().min(1).max(100).optional(),
  target_id: z.string().trim().min(1).max(200).optional(),
  action: z.string().trim().min(1).max(100).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
