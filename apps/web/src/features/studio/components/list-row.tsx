import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/**
 * One row of a list in the Share dialog (a share link, a schedule): its words first, its actions at
 * the end, wrapping on a narrow screen, a rule under each.
 */
export function ListRow({ children }: { children: ReactNode }) {
  return (
    <Box
      component="li"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        py: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {children}
    </Box>
  );
}
