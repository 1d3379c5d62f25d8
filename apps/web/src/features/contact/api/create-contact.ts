import type { ContactCreate } from '@dataplatform/contract';
import { apiRequest } from '../../../lib/api-client.js';

/** `POST /contact/`: a message from the contact form. */
export function createContact(body: ContactCreate): Promise<unknown> {
  return apiRequest<unknown>({ method: 'POST', path: '/contact/', json: body });
}
