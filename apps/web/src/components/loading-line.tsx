import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { CSSObject } from '@mui/material/styles';
import type { ReactNode } from 'react';

/**
 * The one loading line of the app: a small spinner and what is loading ("Loading plans..."),
 * announced politely to screen readers (role="status"). `sx` adds to its layout (a colour, some
 * space, `inline-flex`).
 */
export function LoadingLine({ children, sx }: { children: ReactNode; sx?: CSSObject }) {
  return (
    <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, ...sx }}>
      <CircularProgress size={20} aria-hidden="true" />
      {children}
    </Box>
  );
}
