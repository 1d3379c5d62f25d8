// Runs before first paint: applies the stored (or the system's) colour scheme as a class on <html>,
// the selector the MUI theme uses, so prerendered pages never flash the other scheme. Kept as a
// file because the Content-Security-Policy allows no inline script.
(function () {
  try {
    var mode = localStorage.getItem('mui-mode') || 'system';
    var dark = mode === 'dark' || (mode === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.remove('light', 'dark');
    document.documentElement.classList.add(dark ? 'dark' : 'light');
  } catch {
    // Storage can be blocked; the light scheme applies.
  }
})();
