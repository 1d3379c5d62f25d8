import type { AuditEntry } from '@dataplatform/contract';

/** Who acted: their e-mail, or "System". */
export function actorLabel(entry: AuditEntry): string {
  if (entry.actor_id === null) return 'System';
  return entry.actor_email ?? entry.actor_id;
}

/** The record's own name (an e-mail, a role or plan name) from its values, when it has one. */
export function targetName(entry: AuditEntry): string | undefined {
  for (const values of [entry.after, entry.before]) {
    for (const field of ['email', 'name']) {
      const value = values?.[field];
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return undefined;
}

export function targetLabel(entry: AuditEntry): string {
  const name = targetName(entry);
  if (entry.target_id === null) return entry.target_type;
  return name === undefined ? `${entry.target_type} ${entry.target_id}` : `${entry.target_type} ${name}`;
}
