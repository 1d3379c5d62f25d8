import type { Message, UserRegister } from '@dataplatform/contract';
import { apiRequest } from '../../../lib/api-client.js';

/** `POST /users/signup` */
export function signup(body: UserRegister): Promise<Message> {
  return apiRequest<Message>({ method: 'POST', path: '/users/signup', json: body });
}
