import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { AreaErrorBoundary } from '../../components/area-error-boundary.js';
import { lazyTab, RoutedTabs, type RoutedTab } from '../../components/routed-tabs.js';
import { paths } from '../../config/paths.js';
import { useAreaFrame } from '../../lib/area-frame.js';
import { QueryProvider } from '../../lib/query-client.js';
import { getStoredUser, isLoggedIn } from '../../lib/session.js';
import { useCurrentUser } from '../../lib/current-user.js';
import { DangerZoneTab } from './components/danger-zone-tab.js';
import { EmailVerificationBanner } from './components/email-verification-banner.js';
import { ProfileTab } from './components/profile-tab.js';
import { downloadableFiles } from './downloadable-files.js';
import { LoadingLine } from '../../components/loading-line.js';

// Each tab but the profile and the danger zone in a chunk of its own (lazyTab): the first load carries
// only the tab it opens on. The danger zone is in the frame (inFrame), so the area holds it.
const PlansTab = lazyTab(() => import('./components/plans-tab.js').then((m) => m.PlansTab));
const PaymentMethodsTab = lazyTab(() => import('./components/payment-methods-tab.js').then((m) => m.PaymentMethodsTab));
const BillingHistoryTab = lazyTab(() => import('./components/billing-history-tab.js').then((m) => m.BillingHistoryTab));
const PasswordTab = lazyTab(() => import('./components/password-tab.js').then((m) => m.PasswordTab));
const SecurityTab = lazyTab(() => import('./components/security-tab.js').then((m) => m.SecurityTab));
const DownloadTab = lazyTab(() => import('./components/download-tab.js').then((m) => m.DownloadTab));

function SettingsTabs() {
  const frame = useAreaFrame();
  // The frame starts loading the account for a signed-in visitor; anyone else is on the way to /login.
  const me = useCurrentUser({ enabled: !frame || isLoggedIn() });
  const user = me.data;
  // Until the account has loaded, the stored record says whether this is a superuser (not in the
  // frame, which is everyone's).
  const superuser = user?.is_superuser ?? (frame ? undefined : getStoredUser()?.is_superuser) ?? false;
  const roles = user?.roles ?? [];

  const profile = me.isPending ? (
    <LoadingLine>Loading your profile...</LoadingLine>
  ) : user ? (
    <ProfileTab me={user} />
  ) : (
    <Alert severity="error">Error loading your profile. Please try again later.</Alert>
  );

  // SET-TABS-1, in its order. Download shows only with a download_ role (its URL still
  // answers, with "No downloads available."); Danger zone does not exist for superusers, so its
  // URL falls back to the first tab.
  const tabs: RoutedTab[] = [
    { label: 'My profile', path: paths.settings.profile, element: profile },
    { label: 'Subscription Plans', path: paths.settings.plans, element: <PlansTab me={user} /> },
    { label: 'Payment Methods', path: paths.settings.paymentMethods, element: <PaymentMethodsTab /> },
    { label: 'Billing History', path: paths.settings.billingHistory, element: <BillingHistoryTab /> },
    { label: 'Password', path: paths.settings.password, element: <PasswordTab /> },
    { label: 'Security', path: paths.settings.security, element: <SecurityTab /> },
    {
      label: 'Download',
      path: paths.settings.download,
      element: <DownloadTab roles={roles} />,
      hidden: downloadableFiles(roles).length === 0,
    },
  ];
  if (!superuser) {
    tabs.push({ label: 'Danger zone', path: paths.settings.dangerZone, element: <DangerZoneTab />, inFrame: true });
  }

  return (
    <>
      <EmailVerificationBanner me={user} />
      <RoutedTabs aria-label="Settings" tabs={tabs} />
    </>
  );
}

/** /settings: a lazy chunk behind RequireAuth, its tabs each at their own URL. */
export function SettingsArea() {
  return (
    <QueryProvider>
      <Container maxWidth="lg" sx={{ py: 6 }}>
        <Typography variant="h1" sx={{ mb: 3 }}>
          Settings
        </Typography>
        <AreaErrorBoundary>
          <SettingsTabs />
        </AreaErrorBoundary>
      </Container>
    </QueryProvider>
  );
}
