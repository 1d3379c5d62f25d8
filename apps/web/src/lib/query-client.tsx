import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from './api-error.js';
import { handleGlobalError, type ErrorPresentation } from './error-handling.js';
import { onSessionCleared } from './session.js';

/** What a query or mutation may say about its failures: see ErrorPresentation. */
export type AppMeta = ErrorPresentation & Record<string, unknown>;

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppMeta;
    mutationMeta: AppMeta;
  }
}

let client: QueryClient | undefined;

/**
 * One query client for the signed-in areas, created on first use so the marketing pages never load
 * it. Failures go through the global handler, told how by the operation's `meta`; client errors
 * (4xx) are not retried. The cache is emptied whenever the session is cleared (logout, account
 * deletion, a refused token), so the next person in the same tab starts from nothing.
 */
export function getQueryClient(): QueryClient {
  if (client) return client;
  client = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => handleGlobalError(error, query.meta) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => handleGlobalError(error, mutation.meta),
    }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
        // An answer stays fresh for a few seconds, so a screen that mounts just after its route's
        // loader started a query (prefetchForSignedIn) takes that answer instead of asking again.
        // A change made here invalidates what it touches (use-invalidating-mutation), whatever its age.
        staleTime: 5_000,
      },
    },
  });
  const created = client;
  onSessionCleared(() => created.clear());
  return client;
}

/**
 * Starts a signed-in tab's first queries without waiting for them. Its route loader calls it after
 * the guard (`requireSignedIn() ?? prefetchForSignedIn(...)`), so the data the tab paints first is on
 * its way while the tab's code downloads, and the tab's own queries take the answers in flight.
 */
export function prefetchForSignedIn(start: (client: QueryClient) => readonly Promise<void>[]): null {
  // prefetchQuery never rejects: a failure is the screen's to show, when its own query asks again.
  void Promise.all(start(getQueryClient()));
  return null;
}

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={getQueryClient()}>{children}</QueryClientProvider>;
}
