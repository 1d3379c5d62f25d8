import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { AreaErrorBoundary } from '../../components/area-error-boundary.js';
import { RoutedTabs, type RoutedTab } from '../../components/routed-tabs.js';
import { paths } from '../../config/paths.js';
import { QueryProvider } from '../../lib/query-client.js';
import { ContactsTabLabel } from './components/contacts-tab-label.js';

/** The console's tabs, one list for the page's life (RoutedTabs is memoised on it). */
const ADMIN_TABS: readonly RoutedTab[] = [
  { label: 'Users', path: paths.admin.users },
  { label: 'Roles', path: paths.admin.roles },
  { label: 'Permissions', path: paths.admin.permissions },
  { label: 'User Roles', path: paths.admin.userRoles },
  { label: 'Role Permissions', path: paths.admin.rolePermissions },
  { label: 'Tenants', path: paths.admin.tenants },
  { label: 'Single Sign-On', path: paths.admin.sso },
  // Beyond the product specification: the contact-form inbox (ADM-INBOX-1) and the audit log (ADM-AUDIT-1).
  { label: <ContactsTabLabel />, path: paths.admin.contacts },
  { label: 'Audit Log', path: paths.admin.auditLog },
];

/** /admin (ADM-LAYOUT-1): each tab a route of its own (routes/admin/) at its own URL, behind the superuser guard (its loader). */
export function AdminArea() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 6 } }}>
        <Typography variant="h1" sx={{ fontSize: { xs: '2rem', md: '2.5rem' }, mb: 3 }}>
          Admin Dashboard
        </Typography>
        <AreaErrorBoundary>
          <RoutedTabs aria-label="Admin sections" tabs={ADMIN_TABS} />
        </AreaErrorBoundary>
      </Container>
    </QueryProvider>
  );
}
