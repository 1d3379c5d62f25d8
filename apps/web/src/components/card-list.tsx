import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/**
 * A labelled list of cards in as many columns as fit (one on a phone): plans, saved cards. Each child
 * is a `<Card component="li">`.
 */
export function CardList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      component="ul"
      aria-label={label}
      sx={{
        listStyle: 'none',
        p: 0,
        m: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
      }}
    >
      {children}
    </Box>
  );
}
