import { Navigate, redirect } from 'react-router';
import { paths } from '../config/paths.js';
import { PageOutlet } from './layout/page-outlet.js';
import { getStoredUser, isLoggedIn } from '../lib/session.js';
import { useSignedIn } from '../lib/use-signed-in.js';

/**
 * The layout-less auth group: a stored token sends the visitor to /. A prerendered screen is
 * hydrated as it was rendered, signed out, and the redirect follows.
 */
export function RedirectIfAuthenticated() {
  const signedIn = useSignedIn();
  if (signedIn) return <Navigate to={paths.home} replace />;
  return <PageOutlet />;
}

/**
 * The `clientLoader` of each signed-in tab (routes/settings/): no token, no entry. The guard is the
 * tab's, not its area's, so the area hydrates the markup the build rendered for it (decision 057).
 */
export function requireSignedIn(): Response | null {
  return isLoggedIn() ? null : redirect(paths.login);
}

/**
 * The `clientLoader` of each /admin tab (SEC-ACCESS-4): a token plus a stored user whose is_superuser is true;
 * anything else, an unparsable record included, goes to /login.
 */
export function requireSuperuser(): Response | null {
  return isLoggedIn() && getStoredUser()?.is_superuser === true ? null : redirect(paths.login);
}
