// First: Zod's settings must be in place before any schema is built.
import '@dataplatform/contract/zod-config';

/** The contact form's rules, fetched when the person nears the form (lib/schema-on-demand.ts). */
export { ContactCreateSchema } from '@dataplatform/contract';
