import type { QueryClient } from '@tanstack/react-query';
import { currentUserQueryOptions } from '../../../lib/current-user.js';

/**
 * The id a create sends as created_by/updated_by (ADM-ROLES-5): "User not authenticated" when
 * the current user cannot be loaded. The server ignores these fields and records the caller itself.
 */
export async function requireCurrentUserId(queryClient: QueryClient): Promise<string> {
  try {
    const user = await queryClient.fetchQuery(currentUserQueryOptions());
    return user.id;
  } catch {
    throw new Error('User not authenticated');
  }
}
