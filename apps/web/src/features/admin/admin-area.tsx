import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { AreaErrorBoundary } from '../../components/area-error-boundary.js';
import { RoutedTabs } from '../../components/routed-tabs.js';
import { paths } from '../../config/paths.js';
import { QueryProvider } from '../../lib/query-client.js';
import { AuditLogTab } from './components/audit-log-tab.js';
import { ContactsTab, ContactsTabLabel } from './components/contacts-tab.js';
import { PermissionsTab } from './components/permissions-tab.js';
import { RolePermissionsTab } from './components/role-permissions-tab.js';
import { RolesTab } from './components/roles-tab.js';
import { SsoTab } from './components/sso-tab.js';
import { TenantsTab } from './components/tenants-tab.js';
import { UserRolesTab } from './components/user-roles-tab.js';
import { UsersTab } from './components/users-tab.js';

/** /admin (ADM-LAYOUT-1): a lazy chunk behind RequireSuperuser; each tab has its own URL. */
export function AdminArea() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: { xs: 3, md: 6 } }}>
        <Typography variant="h1" sx={{ fontSize: { xs: '2rem', md: '2.5rem' }, mb: 3 }}>
          Admin Dashboard
        </Typography>
        <AreaErrorBoundary>
          <RoutedTabs
            aria-label="Admin sections"
            tabs={[
              { label: 'Users', path: paths.admin.users, element: <UsersTab /> },
              { label: 'Roles', path: paths.admin.roles, element: <RolesTab /> },
              { label: 'Permissions', path: paths.admin.permissions, element: <PermissionsTab /> },
              { label: 'User Roles', path: paths.admin.userRoles, element: <UserRolesTab /> },
              { label: 'Role Permissions', path: paths.admin.rolePermissions, element: <RolePermissionsTab /> },
              { label: 'Tenants', path: paths.admin.tenants, element: <TenantsTab /> },
              { label: 'Single Sign-On', path: paths.admin.sso, element: <SsoTab /> },
              // Beyond the product specification: the contact-form inbox (ADM-INBOX-1) and the audit log (ADM-AUDIT-1).
              { label: <ContactsTabLabel />, path: paths.admin.contacts, element: <ContactsTab /> },
              { label: 'Audit Log', path: paths.admin.auditLog, element: <AuditLogTab /> },
            ]}
          />
        </AreaErrorBoundary>
      </Container>
    </QueryProvider>
  );
}
