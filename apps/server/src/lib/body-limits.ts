const KiB = 1024;

/**
 * The largest body each kind of route accepts; a bigger one is a 413 before a byte of it is parsed,
 * and a body announced bigger (Content-Length) is refused before it is read. Each limit is the
 * largest valid body of its routes with room for pretty-printing and `\uXXXX` escapes (6 bytes per
 * character), so no valid request is ever refused, and no route reads a megabyte it cannot use.
 */
export const BODY_LIMITS = {
  /**
   * Every route unless it says otherwise: the largest is a contact message (5000 characters plus
   * name, subject, company and phone; 32 KiB fully escaped).
   */
  default: 64 * KiB,
  /** A plan: up to PLAN_FEATURES_MAX features of 200 characters and a 2000-character description. */
  plan: 128 * KiB,
  /** A whole assignment set (a user's roles, a role's permissions): up to ASSIGNMENT_SET_MAX UUIDs. */
  idSet: 128 * KiB,
  /** A tenant's whole member list: up to 10 000 UUIDs of 36 characters. */
  tenantMembers: 512 * KiB,
  /**
   * A Studio report definition (save or preview): REPORT_DEFINITION_MAX characters of YAML, fully
   * escaped, with a run's parameters beside it. A 10 MB definition is a 413 before it is read.
   */
  reportDefinition: 640 * KiB,
  /** A payment provider's event, whose size we do not control (Stripe's stay well under this). */
  webhook: 1024 * KiB,
} as const;
