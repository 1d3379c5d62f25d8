import { LoadingLine } from '../../../components/loading-line.js';

/** The loading line of a part of the page whose code is on its way. */
export function Loading({ children }: { children: string }) {
  return <LoadingLine sx={{ py: 2, color: 'text.secondary' }}>{children}</LoadingLine>;
}
