// First: Zod's settings must be in place before any schema is built.
import '@dataplatform/contract/zod-config';

/** The password form's rules, in a chunk of their own that the tab fetches on demand (password-tab.tsx). */
export { UpdatePasswordSchema } from '@dataplatform/contract';
