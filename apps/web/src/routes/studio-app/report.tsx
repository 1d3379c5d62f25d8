import { Suspense } from 'react';
import { useParams, type ClientLoaderFunctionArgs } from 'react-router';
import { requireSignedIn } from '../../app/guards.js';
import { ReportViewer } from '../../features/studio/components/report-viewer.js';
import { prefetchReportView } from '../../features/studio/report-view.js';
import { ScreenLoading } from '../../features/studio/studio-area.js';

/** The report's definition and its first blocks' rows, fetched beside the screen's code. */
export function clientLoader({ params, request }: ClientLoaderFunctionArgs) {
  const refused = requireSignedIn();
  if (refused) return refused;
  prefetchReportView(params.reportKey ?? '', new URL(request.url).searchParams);
  return null;
}

/** /studio/reports/:reportKey: one report, its parameters in the query string. */
export default function ReportRoute() {
  const { reportKey = '' } = useParams();
  return (
    <Suspense fallback={<ScreenLoading>Loading the report...</ScreenLoading>}>
      <ReportViewer key={reportKey} reportKey={reportKey} />
    </Suspense>
  );
}
