import { preloadFormDialog } from '../../../components/form-dialog.js';
import { LazyConfirmDialog } from '../../../components/lazy-confirm-dialog.js';

/**
 * Fetches the code of the admin tabs' form and confirmation dialogs as the pointer or the focus
 * reaches a button that opens one, so the dialog shows at once (decision 030).
 */
export function preloadAdminDialogs(): void {
  preloadFormDialog();
  LazyConfirmDialog.preload();
}
