// The entry point stays tiny: a prerendered page is painted before the app's code runs, then the
// app (boot.tsx, preloaded by the page's HTML) hydrates it. A route without prerendered markup has
// nothing to paint, so it starts the app at once.
const startApp = () => void import('./boot.js');

if (document.getElementById('root')?.hasChildNodes() && document.visibilityState === 'visible') {
  // A timeout queued from an animation frame runs after that frame has been painted. (A hidden tab
  // paints nothing and runs no animation frames: it starts at once.)
  requestAnimationFrame(() => setTimeout(startApp, 0));
} else {
  startApp();
}
