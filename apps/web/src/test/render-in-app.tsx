import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { appTheme } from '../app/theme.js';
import { QueryProvider } from '../lib/query-client.js';
import { STORAGE_KEYS, type StoredUser } from '../lib/session.js';

/** Renders `ui` inside the app's theme and shared query client, as the signed-in areas show it. */
export function renderInApp(ui: ReactElement): RenderResult {
  return render(
    <ThemeProvider theme={appTheme()}>
      <QueryProvider>{ui}</QueryProvider>
    </ThemeProvider>,
  );
}

/**
 * Renders `ui` in the app's theme with a query client of its own that never retries: for a
 * component whose failure states a test shows at once (the app's client retries server errors).
 */
export function renderWithFreshClient(ui: ReactElement): RenderResult {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <ThemeProvider theme={appTheme()}>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </ThemeProvider>,
  );
}

/** Stores a session for `user`, as a login does (resetSignedInState removes it). */
export function storeSignedInUser(user: StoredUser): void {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
  localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}
