import { THEME_TOGGLE } from '../../lib/prerendered-hooks.js';

/** Where MUI's colour-scheme provider keeps the chosen mode ('light', 'dark' or 'system'). */
const MODE_KEY = 'mui-mode';

function storedMode(): string {
  try {
    return localStorage.getItem(MODE_KEY) ?? 'system';
  } catch {
    return 'system';
  }
}

/** Puts the scheme's class on <html>, with transitions off for that moment (disableTransitionOnChange). */
function applyScheme(scheme: 'light' | 'dark') {
  const noTransitions = document.createElement('style');
  noTransitions.textContent = '*{-webkit-transition:none!important;transition:none!important}';
  document.head.append(noTransitions);
  document.documentElement.classList.remove('light', 'dark');
  document.documentElement.classList.add(scheme);
  void getComputedStyle(document.body).opacity;
  window.setTimeout(() => noTransitions.remove(), 1);
}

/**
 * The theme toggle without the app, as MUI's useColorScheme does it: the other scheme than the
 * one showing, remembered under MUI's own key so /pre-paint.js and the app both read it. While
 * the mode is 'system' the page follows the system's scheme.
 */
export function driveThemeToggle(signal: AbortSignal): void {
  document.addEventListener(
    'click',
    (event) => {
      if (!(event.target instanceof Element) || !event.target.closest(`[${THEME_TOGGLE}]`)) return;
      const scheme = document.documentElement.classList.contains('dark') ? 'light' : 'dark';
      try {
        localStorage.setItem(MODE_KEY, scheme);
      } catch {
        // Storage can be blocked: the choice holds for this page only.
      }
      applyScheme(scheme);
    },
    { signal },
  );
  const system = window.matchMedia('(prefers-color-scheme: dark)');
  system.addEventListener(
    'change',
    () => {
      if (storedMode() === 'system') applyScheme(system.matches ? 'dark' : 'light');
    },
    { signal },
  );
}
