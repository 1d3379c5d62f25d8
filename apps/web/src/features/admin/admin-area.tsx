import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { AreaErrorBoundary } from '../../components/area-error-boundary.js';
import { lazyTab, RoutedTabs } from '../../components/routed-tabs.js';
import { paths } from '../../config/paths.js';
import { QueryProvider } from '../../lib/query-client.js';
import { ContactsTabLabel } from './components/contacts-tab-label.js';

// Each tab in a chunk of its own (lazyTab): the first load carries only the tab it opens on.
const UsersTab = lazyTab(() => import('./components/users-tab.js').then((m) => m.UsersTab));
const RolesTab = lazyTab(() => import('./components/roles-tab.js').then((m) => m.RolesTab));
const PermissionsTab = lazyTab(() => import('./components/permissions-tab.js').then((m) => m.PermissionsTab));
const UserRolesTab = lazyTab(() => import('./components/user-roles-tab.js').then((m) => m.UserRolesTab));
const RolePermissionsTab = lazyTab(() =>
  import('./components/role-permissions-tab.js').then((m) => m.RolePermissionsTab),
);
const TenantsTab = lazyTab(() => import('./components/tenants-tab.js').then((m) => m.TenantsTab));
const SsoTab = lazyTab(() => import('./components/sso-tab.js').then((m) => m.SsoTab));
const ContactsTab = lazyTab(() => import('./components/contacts-tab.js').then((m) => m.ContactsTab));
const AuditLogTab = lazyTab(() => import('./components/audit-log-tab.js').then((m) => m.AuditLogTab));

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
