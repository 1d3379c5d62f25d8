import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A tab's or a section's heading: an h2 of the tabs' one size. */
export function TabHeading({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <Typography id={id} variant="h2" sx={{ fontSize: '1.5rem' }}>
      {children}
    </Typography>
  );
}

/**
 * A tab's heading with its button or filter (`children`) at the far end of the row, or under the
 * heading on a narrow screen.
 */
export function TabHeader({ id, title, children }: { id?: string; title: ReactNode; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between' }}>
      <TabHeading id={id}>{title}</TabHeading>
      {children}
    </Box>
  );
}
