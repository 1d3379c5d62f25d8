import { useParams, useSearchParams } from 'react-router';
import { EmbeddedReportPage } from '../features/studio/sharing/shared-viewer.js';
import { QueryProvider } from '../lib/query-client.js';

/** `/embed/{report_id}?token=…`: a report in another site's frame, as its signed token allows. */
export default function EmbeddedReportRoute() {
  const { report_id: reportId = '' } = useParams();
  const token = useSearchParams()[0].get('token') ?? '';
  return (
    <QueryProvider>
      <EmbeddedReportPage key={`${reportId}:${token}`} reportId={reportId} token={token} />
    </QueryProvider>
  );
}
