import { useSyncExternalStore } from 'react';
import { isLoggedIn, onSessionCleared } from './session.js';

function subscribeToSession(listener: () => void): () => void {
  // Another tab signing in or out changes the stored token; this tab's own sign-out clears the session.
  window.addEventListener('storage', listener);
  const stopListening = onSessionCleared(listener);
  return () => {
    window.removeEventListener('storage', listener);
    stopListening();
  };
}

const inServerRender = () => false;

/**
 * Whether someone is signed in in this browser. False while React hydrates a page rendered at build
 * time (which was rendered signed out), then the stored session; read again on every render, so a
 * sign-in followed by a navigation shows at once. Use it in a small component: React re-renders the
 * component whose value changed after hydration in one go.
 */
export function useSignedIn(): boolean {
  return useSyncExternalStore(subscribeToSession, isLoggedIn, inServerRender);
}

const neverChanges = () => () => undefined;
const inBrowser = () => true;

/** False while rendering at build time and while hydrating that markup, true from then on. */
export function useInBrowser(): boolean {
  return useSyncExternalStore(neverChanges, inBrowser, inServerRender);
}
