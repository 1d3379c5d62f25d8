import { LoadFailure } from '../../../components/query-state.js';
import { ApiError } from '../../../lib/api-error.js';

/** The query of a report (or of what opening it needs) that failed. */
interface FailedQuery {
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * A report that could not be opened, in the viewer and the editor alike: no report at this address
 * (a 404, also for another tenant's: nothing to retry), or the failure in `describe`'s words with
 * "Try again".
 */
export function ReportLoadFailure({ query, describe }: { query: FailedQuery; describe: (error: unknown) => string }) {
  const missing = query.error instanceof ApiError && query.error.status === 404;
  return (
    <LoadFailure sx={{ my: 6 }} onRetry={missing ? undefined : () => void query.refetch()} retrying={query.isFetching}>
      {missing ? 'There is no report here, or it belongs to another tenant.' : describe(query.error)}
    </LoadFailure>
  );
}
