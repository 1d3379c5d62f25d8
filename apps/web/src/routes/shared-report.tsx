import { useParams } from 'react-router';
import { SharedReportPage } from '../features/studio/sharing/shared-viewer.js';
import { QueryProvider } from '../lib/query-client.js';

/** `/s/{token}`: a report opened by a share link, by anyone who holds it (no account, no sign-in). */
export default function SharedReportRoute() {
  const { token = '' } = useParams();
  return (
    <QueryProvider>
      <SharedReportPage key={token} token={token} />
    </QueryProvider>
  );
}
