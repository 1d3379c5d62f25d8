import type { ConfirmDialogProps } from './confirm-dialog.js';
import { lazyDialog } from './lazy-dialog.js';

/** ConfirmDialog, its code loading on its first opening (see `lazyDialog`). */
export const LazyConfirmDialog = lazyDialog<ConfirmDialogProps>(
  () => import('./confirm-dialog.js').then((m) => m.ConfirmDialog),
  (props) => props.open,
);
