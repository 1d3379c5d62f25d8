import type { ConfirmDialogProps } from './confirm-dialog.js';
import { lazyDialog } from './lazy-dialog.js';

/** ConfirmDialog, its code loading on its first opening (see `lazyDialog`). */
export const LazyConfirmDialog = lazyDialog<ConfirmDialogProps>(
  () => import('./confirm-dialog.js').then((m) => m.ConfirmDialog),
  (props) => props.open,
);

/** A LazyConfirmDialog about one row of a table: open while `row` is set; Confirm hands that row to `onConfirm`. */
export function LazyRowConfirmDialog<TRow>({
  row,
  onConfirm,
  ...props
}: Omit<ConfirmDialogProps, 'open' | 'onConfirm'> & { row: TRow | undefined; onConfirm: (row: TRow) => void }) {
  return (
    <LazyConfirmDialog
      {...props}
      open={row !== undefined}
      onConfirm={() => {
        if (row !== undefined) onConfirm(row);
      }}
    />
  );
}
