import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { errorText } from '../../../lib/api-error.js';
import { LoadingLine } from '../../../components/loading-line.js';
import { LoadFailure } from '../../../components/query-state.js';
import type { BlockState } from '../report-view.js';

/**
 * One block of a report in its card: a title, and the block's own loading, empty and error states,
 * so a slow or failing block never holds back the others (STUDIO-VIEW-3).
 */
export function BlockFrame({
  title,
  state,
  action,
  children,
  minHeight = 120,
}: {
  title: string | null;
  state: BlockState;
  /** A control beside the title (view as table, download). */
  action?: ReactNode;
  children?: ReactNode;
  minHeight?: number;
}) {
  let body: ReactNode;
  switch (state.status) {
    case 'loading':
      body = <LoadingLine sx={{ color: 'text.secondary' }}>Running the query...</LoadingLine>;
      break;
    case 'error':
      body = <LoadFailure onRetry={state.retry}>This block could not be loaded: {errorText(state.error)}</LoadFailure>;
      break;
    case 'empty':
      body = (
        <Typography color="text.secondary" variant="body2">
          No rows match these parameters.
        </Typography>
      );
      break;
    case 'ready':
      body = children;
  }
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-label={title ?? undefined}
      sx={{ p: 2, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      {title !== null || action !== undefined ? (
        <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
          {title !== null ? (
            <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {title}
            </Typography>
          ) : (
            <span />
          )}
          {state.status === 'ready' ? <Box sx={{ flexShrink: 0 }}>{action}</Box> : undefined}
        </Box>
      ) : undefined}
      <Box sx={{ minHeight, display: 'flex', flexDirection: 'column', justifyContent: 'center', minWidth: 0 }}>
        {body}
      </Box>
    </Paper>
  );
}
