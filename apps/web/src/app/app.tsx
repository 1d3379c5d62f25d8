import CssBaseline from '@mui/material/CssBaseline';
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { registerNavigator } from '../lib/navigation.js';
import { getToasts, subscribeToasts } from '../lib/toast-store.js';
import { AppRoutes } from './routes.js';
import { AppThemeProvider } from './theme.js';

const Toaster = lazy(() => import('../components/toaster.js').then((m) => ({ default: m.Toaster })));

/** Lets code outside components (the API client's 401 rule) navigate inside the router. */
function NavigatorBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    registerNavigator((to, options) => void navigate(to, options));
    return () => registerNavigator(undefined);
  }, [navigate]);
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

/** The whole app inside a router (BrowserRouter in the browser, StaticRouter when prerendering). */
export function App() {
  return (
    <AppThemeProvider>
      <CssBaseline enableColorScheme />
      <NavigatorBridge />
      <AppRoutes />
      <ToastOutlet />
    </AppThemeProvider>
  );
}
