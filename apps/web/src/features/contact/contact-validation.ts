// First: Zod's settings must be in place before any schema is built.
import '../../lib/zod-jitless.js';

/**
 * The contact form's rules (CONTACT-VALID-1) and texts. The contact page loads this module when
 * the visitor first focuses the form, so the validation code stays out of the page's first load.
 */
export { ContactCreateSchema, contactMessages } from '@dataplatform/contract';
