import { lazyDialog } from '../../../components/lazy-dialog.js';
import type { AddToReportDialogProps } from './add-to-report-dialog.js';

/** "Add to report", its dialog's code loading on its first opening. */
export const AddToReportDialog = lazyDialog<AddToReportDialogProps>(
  () => import('./add-to-report-dialog.js').then((module) => module.default),
  (props) => props.open,
);

export type Adding = AddToReportDialogProps['add'];
