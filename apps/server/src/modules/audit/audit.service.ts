import type { AuditEntries, AuditEntry, AuditQuery } from '@dataplatform/contract';
import type { Database, DbOrTx } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { mapPage } from '../../lib/pagination.js';
import type { Actor } from '../../lib/auth-context.js';
import { insertAuditEntry, listAuditEntries, type AuditRow } from './audit.repository.js';

/** A JSON snapshot of the target, without secrets or password hashes (mappers build these). */
export type AuditSnapshot = Record<string, unknown>;

export interface AuditChange {
  /** One of AUDIT_ACTIONS (contract), or an area's own `thing.verb`. */
  action: string;
  targetType: string;
  targetId: string | null;
  before: AuditSnapshot | null;
  after: AuditSnapshot | null;
}

function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    before: row.before ?? null,
    after: row.after ?? null,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The audit log. `record` takes the caller's transaction: the entry commits with the change it
 * describes, or neither does.
 */
export function createAuditService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async record(tx: DbOrTx, actor: Actor, change: AuditChange): Promise<void> {
      await insertAuditEntry(tx, {
        actorId: actor.user.id,
        actorEmail: actor.user.email,
        action: change.action,
        targetType: change.targetType,
        targetId: change.targetId,
        before: change.before,
        after: change.after,
        ip: actor.ip,
        createdAt: clock.now(),
      });
    },

    /**
     * For changes no signed-in request makes, or made on someone's behalf: the renewal worker and
     * provider events record with no actor, a subscriber's own subscribe or cancel with that user.
     */
    async recordAs(
      tx: DbOrTx,
      actor: { id: string; email: string; ip: string | null } | null,
      change: AuditChange,
    ): Promise<void> {
      await insertAuditEntry(tx, {
        actorId: actor?.id ?? null,
        actorEmail: actor?.email ?? null,
        action: change.action,
        targetType: change.targetType,
        targetId: change.targetId,
        before: change.before,
        after: change.after,
        ip: actor?.ip ?? null,
        createdAt: clock.now(),
      });
    },

    async list(query: AuditQuery): Promise<AuditEntries> {
      const page = await listAuditEntries(
        db,
        { actorId: query.actor_id, targetType: query.target_type, targetId: query.target_id, action: query.action },
        query,
      );
      return mapPage(page, toAuditEntry);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
