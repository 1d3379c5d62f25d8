/**
 * Every path of the web app, defined once (NAV-ROUTES-1, NAV-ROUTES-3). Screens link and redirect through
 * these names; the route tree in app/routes.tsx mounts the same segments.
 */
export const paths = {
  home: '/',
  login: '/login',
  loginSso: '/login/sso',
  signup: '/signup',
  recoverPassword: '/recover-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  studio: '/studio',
  aboutUs: '/about-us',
  contact: '/contact',
  dataEngineering: '/data-engineering',
  highScaleTableau: '/high-scale-tableau',
  transparencyPipeline: '/transparency-pipeline',
  settings: {
    root: '/settings',
    profile: '/settings/profile',
    plans: '/settings/plans',
    paymentMethods: '/settings/payment-methods',
    billingHistory: '/settings/billing-history',
    password: '/settings/password',
    security: '/settings/security',
    download: '/settings/download',
    dangerZone: '/settings/danger-zone',
  },
  admin: {
    root: '/admin',
    users: '/admin/users',
    roles: '/admin/roles',
    permissions: '/admin/permissions',
    userRoles: '/admin/user-roles',
    rolePermissions: '/admin/role-permissions',
    tenants: '/admin/tenants',
    sso: '/admin/sso',
    contacts: '/admin/contacts',
    auditLog: '/admin/audit-log',
  },
} as const;

/** The last segment of an area path: the tab's own route inside its area ('/settings/plans' → 'plans'). */
export function tabSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
