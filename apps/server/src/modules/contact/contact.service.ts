import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  contactSubmissionMessages,
  type ContactCreateSchema,
  type ContactListQuery,
  type ContactStatus,
  type ContactSubmission,
} from '@dataplatform/contract';
import type { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import type { Actor } from '../../lib/auth-context.js';
import { mapPage, type Page } from '../../lib/pagination.js';
import { contactNotificationMail, enqueueMail, type MailingServiceDeps } from '../mail/mail.service.js';
import { toContactSubmission } from './contact.mapper.js';
import { findSubmissionById, insertSubmission, listSubmissions, updateSubmissionStatus } from './contact.repository.js';

type ContactForm = z.output<typeof ContactCreateSchema>;

export function createContactService(deps: MailingServiceDeps) {
  const { db, config, clock, wakeMailer, audit } = deps;

  return {
    /**
     * Stores the message and, in the same transaction, the notification mail. A filled honeypot is
     * stored as spam and notifies no one; the caller cannot tell the difference.
     */
    async submit(form: ContactForm, origin: { ip: string; userAgent: string | undefined }): Promise<void> {
      const isSpam = form.website !== undefined && form.website.trim() !== '';
      await db.transaction(async (tx) => {
        const row = await insertSubmission(tx, {
          name: form.name,
          email: form.email,
          company: form.company || null,
          phone: form.phone || null,
          subject: form.subject,
          message: form.message,
          source: form.source,
          status: isSpam ? 'spam' : 'new',
          ip: origin.ip,
          userAgent: origin.userAgent?.slice(0, 500) ?? null,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        });
        if (!isSpam) {
          await enqueueMail(tx, contactNotificationMail(config.contactNotifyEmail, toContactSubmission(row)));
        }
      });
      if (!isSpam) wakeMailer();
    },

    async list(query: ContactListQuery): Promise<Page<ContactSubmission>> {
      return mapPage(await listSubmissions(db, query), toContactSubmission);
    },

    async setStatus(actor: Actor, id: string, status: ContactStatus): Promise<ContactSubmission> {
      const row = await db.transaction(async (tx) => {
        const before = await findSubmissionById(tx, id);
        if (!before) throw notFound(contactSubmissionMessages.notFound);
        const after = await updateSubmissionStatus(tx, id, status, clock.now());
        // Deleted by a request that committed after our read.
        if (!after) throw notFound(contactSubmissionMessages.notFound);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.contactStatusUpdate,
          targetType: AUDIT_TARGET_TYPES.contactSubmission,
          targetId: id,
          before: { status: before.status },
          after: { status: after.status },
        });
        return after;
      });
      return toContactSubmission(row);
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
