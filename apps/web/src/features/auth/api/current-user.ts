import type { UserPublic } from '@dataplatform/contract';
import { apiRequest } from '../../../lib/api-client.js';

/** `GET /users/me` */
export function fetchCurrentUser(): Promise<UserPublic> {
  return apiRequest<UserPublic>({ path: '/users/me' });
}
