import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { AreaErrorBoundary } from '../../components/area-error-boundary.js';
import { RoutedTabs } from '../../components/routed-tabs.js';
import { paths } from '../../config/paths.js';
import { QueryProvider } from '../../lib/query-client.js';
import { AuditLogTab } from './components/audit-log-tab.js';
import { ContactsTab, ContactsTabLabel } from './components/contacts-tab.js';

/** /admin: a lazy chunk behind RequireSuperuser. */
export function AdminArea() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: 6 }}>
        <Typography variant="h1" sx={{ mb: 3 }}>
          Admin Dashboard
        </Typography>
        <AreaErrorBoundary>
          <RoutedTabs
            aria-label="Admin sections"
            tabs={[
              { label: <ContactsTabLabel />, path: paths.admin.contacts, element: <ContactsTab /> },
              { label: 'Audit Log', path: paths.admin.auditLog, element: <AuditLogTab /> },
            ]}
          />
        </AreaErrorBoundary>
      </Container>
    </QueryProvider>
  );
}
