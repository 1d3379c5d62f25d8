import CssBaseline from '@mui/material/CssBaseline';
import { lazy, Suspense, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  useMatches,
  useNavigate,
  type MetaDescriptor,
  type MetaArgs,
} from 'react-router';
import platformUi from './app/platform-ui.js?raw';
import prePaint from './app/pre-paint.js?raw';
import { AppThemeProvider } from './app/theme.js';
import { PAGE_REDIRECTS, pageRunsApp, PRERENDERED_PATHS } from './config/route-table.js';
import { registerNavigator } from './lib/navigation.js';
import { inlineScript } from './lib/inline-script.js';
import { pageMetaFor } from './lib/page-meta.js';
import { getToasts, subscribeToasts } from './lib/toast-store.js';

declare const __SITE_URL__: string;

const PRE_PAINT = inlineScript(prePaint).replace('PAGE_REDIRECTS', JSON.stringify(PAGE_REDIRECTS));
const PLATFORM_UI = inlineScript(platformUi);

const Toaster = lazy(() => import('./components/toaster.js').then((m) => ({ default: m.Toaster })));

/**
 * Title, description and (on a prerendered page) canonical link of every route, from the route
 * table. Routes declare no `meta` of their own: React Router keeps this one for all of them.
 */
export function meta({ location }: MetaArgs): MetaDescriptor[] {
  const page = pageMetaFor(location.pathname);
  return [
    { title: page.title },
    { name: 'description', content: page.description },
    ...(page.noindex ? [{ name: 'robots', content: 'noindex' }] : []),
    ...(PRERENDERED_PATHS.includes(page.path)
      ? [{ tagName: 'link', rel: 'canonical', href: `${__SITE_URL__}${page.path}` }]
      : []),
  ];
}

/**
 * The document of every page. The pre-paint script runs before the first paint, inline (a file would
 * delay that paint; the server allows it by its CSP hash, like React Router's own inline scripts):
 * it puts the colour scheme's class on <html>, so `suppressHydrationWarning` there. The platform-UI
 * script serves the top bar's menus and drawer on every page. A marketing page with nothing for React
 * to do (`hydrate: false` in the route table) leaves out the app's scripts altogether (decision 053);
 * one that runs the app on the person's first interaction has them held by the build for then
 * (build/finish-build.ts, decision 058).
 */
export function Layout({ children }: { children: ReactNode }) {
  const runsApp = pageRunsApp(useMatches().at(-1)?.id);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="UTF-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1.0" />
        <meta name="theme-color" content="#1d4ed8" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <script dangerouslySetInnerHTML={{ __html: PRE_PAINT }} />
        <script dangerouslySetInnerHTML={{ __html: PLATFORM_UI }} />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {runsApp ? <Scripts /> : null}
      </body>
    </html>
  );
}

/** Lets code outside components (the API client's 401 rule) navigate inside the router. */
function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    registerNavigator((to, options) => void navigate(to, options));
    return () => registerNavigator(undefined);
  }, [navigate]);
  return null;
}

/** Tells the pre-paint script's guard that forms are the app's now (their sends are handled). */
function AppRunning() {
  useEffect(() => document.documentElement.setAttribute('data-app-running', ''), []);
  return null;
}

/** Loads the snackbar code only once there is something to show. */
function ToastOutlet() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

function Providers({ children }: { children: ReactNode }) {
  return (
    <AppThemeProvider>
      <CssBaseline enableColorScheme />
      {children}
    </AppThemeProvider>
  );
}

export default function App() {
  return (
    <Providers>
      <NavigatorBridge />
      <AppRunning />
      <Outlet />
      <ToastOutlet />
    </Providers>
  );
}

/** The SPA fallback (index.html) for routes that are not prerendered: the page's colours, nothing else. */
export function HydrateFallback() {
  return (
    <Providers>
      <span />
    </Providers>
  );
}
