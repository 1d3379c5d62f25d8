import './zod-config.js';
import { z } from 'zod';

export * from './sessions-constants.js';

/**
 * One live sign-in of the caller, for the Security tab (`GET /users/me/sessions`). The token itself
 * is never shown; `current` marks the session of the request that asked ("This device").
 */
export const AccountSessionSchema = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime(),
  /** Updated at most once every few minutes (decision 027), so "recent" is as precise as it gets. */
  last_seen_at: z.iso.datetime(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** A readable browser and system, e.g. "Firefox 133 on Windows 10", or null when unknown. */
  device: z.string().nullable(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;

export const AccountSessionsSchema = z.object({ data: z.array(AccountSessionSchema) });
export type AccountSessions = z.infer<typeof AccountSessionsSchema>;

export const SessionIdParamsSchema = z.object({ session_id: z.uuid({ error: 'Invalid session id' }) });

/** How many sessions a bulk sign-out ended. */
export const SessionsRevokedSchema = z.object({ revoked: z.number().int() });
export type SessionsRevoked = z.infer<typeof SessionsRevokedSchema>;
