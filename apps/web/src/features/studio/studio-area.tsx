import Container from '@mui/material/Container';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { LoadingLine } from '../../components/loading-line.js';
import { paths } from '../../config/paths.js';
import { QueryProvider } from '../../lib/query-client.js';

/** A screen's loading line (the route modules' code, or what a screen's own parts load first). */
export function ScreenLoading({ children }: { children: string }) {
  return <LoadingLine sx={{ py: 6, color: 'text.secondary' }}>{children}</LoadingLine>;
}

/**
 * The signed-in Studio area (/studio/reports…, /studio/sources, /studio/embed): its screens (the
 * report list, each report, its editor, the sources, embedding) are route modules of the route table
 * (config/route-table.ts), rendered in the outlet. While the router loads another screen's code, the
 * outlet shows a loading line; a change of the query string alone (a report's parameters) keeps the screen.
 */
export function StudioArea() {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const next = navigation.location?.pathname;
  const leaving = next !== undefined && next !== pathname && next.startsWith(`${paths.studioApp.root}/`);
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 5 } }}>
        {leaving ? <ScreenLoading>Loading...</ScreenLoading> : <Outlet />}
      </Container>
    </QueryProvider>
  );
}
