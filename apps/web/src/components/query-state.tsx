import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { CSSObject } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { LoadingLine } from './loading-line.js';

/**
 * The one failure block of the app: what could not be loaded, in the screen's words, announced at
 * once, and "Try again" when trying again can help (`onRetry`; `retrying` spins it). The alert role is
 * on the words alone, so what is announced (and read by a test) is the message, not the button's label.
 */
export function LoadFailure({
  children,
  onRetry,
  retrying = false,
  sx,
}: {
  children: ReactNode;
  onRetry?: (() => void) | undefined;
  retrying?: boolean;
  sx?: CSSObject;
}) {
  return (
    <Alert
      severity="error"
      role="none"
      sx={sx}
      action={
        onRetry ? (
          <Button color="inherit" size="small" loading={retrying} onClick={onRetry} sx={{ whiteSpace: 'nowrap' }}>
            Try again
          </Button>
        ) : undefined
      }
    >
      <span role="alert">{children}</span>
    </Alert>
  );
}

/** What QueryState reads of a TanStack query (`useQuery`'s result). */
export interface LoadingQuery {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * The one way a screen shows something it loads: the loading line, the failure with "Try again",
 * the empty text, or the content. Each text is the screen's own; `content` is called only once the
 * data is there and not empty.
 */
export function QueryState({
  query,
  loading,
  failed,
  empty,
  isEmpty = false,
  content,
}: {
  query: LoadingQuery;
  loading: ReactNode;
  failed: ReactNode;
  empty?: ReactNode;
  isEmpty?: boolean;
  content: () => ReactNode;
}) {
  if (query.isPending) return <LoadingLine sx={{ color: 'text.secondary' }}>{loading}</LoadingLine>;
  if (query.isError) {
    return (
      <LoadFailure onRetry={() => void query.refetch()} retrying={query.isFetching}>
        {failed}
      </LoadFailure>
    );
  }
  if (isEmpty) return <Typography color="text.secondary">{empty}</Typography>;
  return content();
}
