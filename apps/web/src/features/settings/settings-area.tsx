import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { AreaErrorBoundary } from '../../components/area-error-boundary.js';
import { RoutedTabs, type RoutedTab } from '../../components/routed-tabs.js';
import { paths } from '../../config/paths.js';
import { QueryProvider } from '../../lib/query-client.js';
import { getStoredUser, isLoggedIn } from '../../lib/session.js';
import { useCurrentUser } from '../../lib/current-user.js';
import { useInBrowser } from '../../lib/use-signed-in.js';
import { EmailVerificationBanner } from './components/email-verification-banner.js';
import { downloadableFiles } from './downloadable-files.js';

/**
 * SET-TABS-1, in its order; each tab's screen is its route module (routes/settings/). Download shows
 * only with a download_ role (its URL still answers, with "No downloads available."); Danger zone does
 * not exist for superusers, so its URL falls back to the first tab.
 */
function settingsTabs({ superuser, hasDownloads }: { superuser: boolean; hasDownloads: boolean }): RoutedTab[] {
  const tabs: RoutedTab[] = [
    { label: 'My profile', path: paths.settings.profile },
    { label: 'Subscription Plans', path: paths.settings.plans },
    { label: 'Payment Methods', path: paths.settings.paymentMethods },
    { label: 'Billing History', path: paths.settings.billingHistory },
    { label: 'Password', path: paths.settings.password },
    { label: 'Security', path: paths.settings.security },
    { label: 'Download', path: paths.settings.download, hidden: !hasDownloads },
  ];
  if (!superuser) {
    tabs.push({ label: 'Danger zone', path: paths.settings.dangerZone });
  }
  return tabs;
}

function SettingsTabs() {
  // False in the frame: rendered at build time for everyone, and hydrated as it was rendered.
  const inBrowser = useInBrowser();
  // Asked for as the page hydrates; anyone not signed in is on the way to /login (the tabs' guard).
  const me = useCurrentUser({ enabled: isLoggedIn() });
  const user = me.data;
  // Until the account has loaded, the stored record says whether this is a superuser (not in the
  // frame, which is everyone's).
  const superuser = user?.is_superuser ?? (inBrowser ? getStoredUser()?.is_superuser : undefined) ?? false;
  const roles = user?.roles ?? [];

  const hasDownloads = downloadableFiles(roles).length > 0;
  // The same list while neither changes, so the tab strip is not rendered again (RoutedTabs is memoised).
  const tabs = useMemo(() => settingsTabs({ superuser, hasDownloads }), [superuser, hasDownloads]);

  return (
    <>
      <EmailVerificationBanner me={user} />
      <RoutedTabs aria-label="Settings" tabs={tabs} />
    </>
  );
}

/** /settings: its tabs each a route of their own at their own URL, behind the signed-in guard (their loader). */
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
