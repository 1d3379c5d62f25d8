// Runs before first paint: applies the stored (or the system's) colour scheme as a class on <html>,
// the selector the MUI theme uses, so prerendered pages never flash the other scheme. The build
// inlines it (allowed by its CSP hash), as a file would delay the first paint.
(function () {
  // `/` is the Studio page (SPEC.md section 2), which is prerendered: go there before the app's
  // shell loads anything.
  if (location.pathname === '/') {
    location.replace('/studio' + location.search + location.hash);
    return;
  }
  try {
    var mode = localStorage.getItem('mui-mode') || 'system';
    var dark = mode === 'dark' || (mode === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.remove('light', 'dark');
    document.documentElement.classList.add(dark ? 'dark' : 'light');
  } catch {
    // Storage can be blocked; the light scheme applies.
  }
})();
