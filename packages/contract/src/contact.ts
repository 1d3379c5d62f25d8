import './zod-config.js';
import { z } from 'zod';
import { pageOf, PaginationQuerySchema } from './common.js';
import {
  CONTACT_NAME_MIN,
  CONTACT_SUBJECT_MIN,
  CONTACT_MESSAGE_MIN,
  contactMessages,
  CONTACT_STATUSES,
} from './contact-constants.js';

export * from './contact-constants.js';

export const ContactStatusSchema = z.enum(CONTACT_STATUSES);
export type ContactStatus = z.infer<typeof ContactStatusSchema>;

/**
 * `POST /contact/` body: the contact form of CONTACT-FORM-1 with the rules of CONTACT-VALID-1.
 * `website` is a honeypot: hidden from people, so only robots fill it.
 */
export const ContactCreateSchema = z.object({
  name: z
    .string({ error: contactMessages.nameTooShort })
    .trim()
    .min(CONTACT_NAME_MIN, contactMessages.nameTooShort)
    .max(100, 'Name must be at most 100 characters'),
  email: z
    .string({ error: contactMessages.emailInvalid })
    .trim()
    .max(254, contactMessages.emailInvalid)
    .email(contactMessages.emailInvalid),
  company: z.string().trim().max(200, 'Company must be at most 200 characters').nullish(),
  phone: z.string().trim().max(50, 'Phone must be at most 50 characters').nullish(),
  subject: z
    .string({ error: contactMessages.subjectTooShort })
    .trim()
    .min(CONTACT_SUBJECT_MIN, contactMessages.subjectTooShort)
    .max(200, 'Subject must be at most 200 characters'),
  message: z
    .string({ error: contactMessages.messageTooShort })
    .trim()
    .min(CONTACT_MESSAGE_MIN, contactMessages.messageTooShort)
    .max(5000, 'Message must be at most 5000 characters'),
  source: z.string().trim().min(1).max(100).default('website'),
  website: z.string().max(500).optional(),
});
export type ContactCreate = z.input<typeof ContactCreateSchema>;

export const ContactSubmissionSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  phone: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  source: z.string(),
  status: ContactStatusSchema,
  created_at: z.iso.datetime(),
});
export type ContactSubmission = z.infer<typeof ContactSubmissionSchema>;
export const ContactSubmissionsSchema = pageOf(ContactSubmissionSchema);
export type ContactSubmissions = z.infer<typeof ContactSubmissionsSchema>;

/** `GET /contact/`: a page, optionally only one status. */
export const ContactListQuerySchema = PaginationQuerySchema.extend({ status: ContactStatusSchema.optional() });
export type ContactListQuery = z.infer<typeof ContactListQuerySchema>;

/** `PATCH /contact/{contact_id}/status?status=` */
export const ContactStatusQuerySchema = z.object({ status: ContactStatusSchema });
export const ContactIdParamsSchema = z.object({ contact_id: z.uuid({ error: 'Invalid contact id' }) });
