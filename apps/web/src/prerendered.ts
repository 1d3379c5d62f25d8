// The script of a prerendered marketing page, instead of the app. The page arrives complete (its
// HTML, Emotion's CSS, the top bar's menus and drawer prerendered in templates), so what is left
// to run fits in a few kilobytes: the theme toggle, the menus and the drawer, and MUI's button
// feedback. The app (React, MUI, the router: boot.tsx) loads only when needed: for a visitor who
// is signed in (the top bar is theirs: tenant switcher, Log Out), or on the first sign of use of a
// part only the app runs (the contact form). Links are ordinary links: the next page loads,
// prerendered too, or the app for the app's routes. docs/decisions/024-lean-marketing-pages.md
import { bridgeForms } from './app/prerendered/form-bridge.js';
import { driveOverlays, type Overlays } from './app/prerendered/overlays.js';
import { driveRipples } from './app/prerendered/ripple.js';
import { driveThemeToggle } from './app/prerendered/theme-toggle.js';
import { importApp } from './load-app.js';
import { OPENS } from './lib/prerendered-hooks.js';
import { isLoggedIn } from './lib/session.js';

const signedIn = isLoggedIn();
const page = new AbortController();
const forms = new AbortController();
// A signed-in visitor gets the app at once: the menus open when it runs, as the app's own.
const overlays: Overlays | undefined = signedIn ? undefined : driveOverlays(page.signal);
const ripples = driveRipples(page.signal);
driveThemeToggle(page.signal);

let appLoading = false;
function loadApp() {
  if (appLoading) return;
  appLoading = true;
  void importApp()
    .then((startApp) =>
      startApp({
        // Right before React takes the page: an open menu is left to close first, then nothing of
        // this script may stay in the markup React hydrates.
        async beforeHydrate() {
          await overlays?.whenClosed();
          page.abort();
          overlays?.closeNow();
          ripples.clear();
          bridge.restoreMarkup();
        },
      }),
    )
    .then(() => {
      bridge.replay();
      forms.abort();
      // A menu button pressed while the app was on its way opens now.
      pressedEarly?.click();
    });
}

const bridge = bridgeForms(forms.signal, loadApp);
let pressedEarly: HTMLElement | undefined;

if (signedIn) {
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target instanceof Element ? event.target.closest<HTMLElement>(`[${OPENS}]`) : null;
      if (button) pressedEarly = button;
    },
    { signal: page.signal },
  );
  // After the first paint: a timeout queued from an animation frame runs once that frame is painted.
  requestAnimationFrame(() => setTimeout(loadApp, 0));
}
