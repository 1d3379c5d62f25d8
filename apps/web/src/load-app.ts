import type * as Boot from './boot.js';

/** The next task of the event loop: what runs after this await is a task of its own. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Loads the app (boot.tsx) in three tasks instead of one. A module graph is evaluated in one go,
 * and the app's first-load graph is 150–200 ms of main-thread work on a phone (Lighthouse's 4×
 * slowdown): a single long task in which nothing on the page answers. So, each step a task:
 * 1. Emotion and MUI's styling, MUI's default theme with them (what theme.tsx imports);
 * 2. the app's theme, both colour schemes as CSS variables;
 * 3. React DOM, the router, the app's frame and area.
 * The chunks are the same and already on their way (the page preloads them): only evaluation waits.
 * docs/decisions/039-app-evaluated-in-steps.md
 */
export async function importApp(): Promise<typeof Boot.startApp> {
  const { appTheme } = await import('./app/theme.js');
  await nextTask();
  appTheme();
  await nextTask();
  const { startApp } = await import('./boot.js');
  return startApp;
}
