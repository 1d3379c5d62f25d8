import type { ContactSubmission } from '@dataplatform/contract';
import type { ContactSubmissionRow } from './contact.repository.js';

export function toContactSubmission(row: ContactSubmissionRow): ContactSubmission {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    subject: row.subject,
    message: row.message,
    source: row.source,
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}
