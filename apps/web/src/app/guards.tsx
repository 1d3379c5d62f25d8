import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { paths } from '../config/paths.js';
import { useAreaFrame } from '../lib/area-frame.js';
import { getStoredUser, isLoggedIn } from '../lib/session.js';
import { useHydrated } from '../lib/use-hydrated.js';

/**
 * The layout-less auth group: a stored token sends the visitor to /. A prerendered screen is
 * hydrated as it was rendered, signed out, and the redirect follows.
 */
export function RedirectIfAuthenticated() {
  const hydrated = useHydrated();
  if (hydrated && isLoggedIn()) return <Navigate to={paths.home} replace />;
  return (
    <Suspense fallback={null}>
      <Outlet />
    </Suspense>
  );
}

/** Signed-in areas: no token, no entry (the build's frame of a tab excepted: it shows no one's data). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const frame = useAreaFrame();
  if (!frame && !isLoggedIn()) return <Navigate to={paths.login} replace />;
  return children;
}

/**
 * /admin (SEC-ACCESS-4): a token plus a stored user whose is_superuser is true; anything else,
 * an unparsable record included, goes to /login.
 */
export function RequireSuperuser({ children }: { children: ReactNode }) {
  const frame = useAreaFrame();
  if (!frame && (!isLoggedIn() || getStoredUser()?.is_superuser !== true)) return <Navigate to={paths.login} replace />;
  return children;
}
