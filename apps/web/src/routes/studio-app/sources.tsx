import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { SourcesPage } from '../../features/studio/components/sources-page.js';

/** /studio/sources: the selected tenant's sources; the report list and the viewer never carry them. */
export default function SourcesRoute() {
  return (
    <Suspense
      fallback={
        <Box role="status" sx={{ py: 6, color: 'text.secondary' }}>
          Loading the sources...
        </Box>
      }
    >
      <SourcesPage />
    </Suspense>
  );
}
