import { LoadingLine } from '../../../components/loading-line.js';

/** A report's pending state, until its definition arrives: the viewer's, and the showcase's prerendered frame. */
export function ReportLoading() {
  return <LoadingLine sx={{ py: 6, color: 'text.secondary' }}>Loading the report...</LoadingLine>;
}
