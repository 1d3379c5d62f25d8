import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { useParams } from 'react-router';
import ReportEditorPage from '../../features/studio/editor/report-editor.js';

/** /studio/reports/new and /studio/reports/:reportKey/edit: the editor (CodeMirror, the diff) loads here only. */
export default function ReportEditorRoute() {
  const { reportKey } = useParams();
  return (
    <Suspense
      fallback={
        <Box role="status" sx={{ py: 6, color: 'text.secondary' }}>
          Loading the editor...
        </Box>
      }
    >
      <ReportEditorPage key={reportKey ?? 'new'} {...(reportKey === undefined ? {} : { reportKey })} />
    </Suspense>
  );
}
