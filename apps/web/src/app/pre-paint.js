// Runs before the first paint, inlined by the build into every page's <head> (allowed by its CSP
// hash), as a file would delay the first paint. What a page must look like from its first frame:
(function () {
  // A path the route table redirects (`/` is the Studio page, NAV-ROUTES-3): go on before the app's
  // shell loads anything. root.tsx writes the route table's redirects in (routes/redirect.tsx follows
  // them for a link inside the app).
  // eslint-disable-next-line no-undef
  var redirectTo = PAGE_REDIRECTS[location.pathname];
  if (redirectTo) {
    location.replace(redirectTo + location.search + location.hash);
    return;
  }
  // The stored (or the system's) colour scheme as a class on <html>, the selector the MUI theme
  // uses, so prerendered pages never flash the other scheme.
  try {
    var mode = localStorage.getItem('mui-mode') || 'system';
    var dark = mode === 'dark' || (mode === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.remove('light', 'dark');
    document.documentElement.classList.add(dark ? 'dark' : 'light');
  } catch {
    // Storage can be blocked; the light scheme applies.
  }
  // A form sent before the app has taken the page over would be sent by the browser, its fields in
  // the address (a password in a log): until the app marks <html> as running, a send does nothing.
  // What a person did meanwhile is done again once the page is the app's (running, and the page's
  // own part hydrated: app/layout/page-outlet.tsx): each field left (the app checks a field as it is
  // left), then the last send asked for. Typing needs nothing: it stays in the fields.
  var html = document.documentElement;
  var heldSend = null;
  var fieldsLeft = [];
  var pageHydrated = false;
  function appRunning() {
    return html.hasAttribute('data-app-running');
  }
  document.addEventListener(
    'submit',
    function (event) {
      if (appRunning()) return;
      event.preventDefault();
      heldSend = { form: event.target, submitter: event.submitter };
    },
    true,
  );
  document.addEventListener(
    'focusout',
    function (event) {
      var field = event.target;
      if (appRunning() || !/^(INPUT|TEXTAREA|SELECT)$/.test(field.tagName)) return;
      if (fieldsLeft.indexOf(field) < 0) fieldsLeft.push(field);
    },
    true,
  );
  function doAgain() {
    if (!pageHydrated || !appRunning()) return;
    fieldsLeft.forEach(function (field) {
      if (field.isConnected && field !== document.activeElement) {
        field.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
      }
    });
    fieldsLeft = [];
    var send = heldSend;
    heldSend = null;
    if (send && send.form.isConnected) {
      send.form.requestSubmit(send.submitter && send.submitter.form === send.form ? send.submitter : null);
    }
  }
  document.addEventListener('app:page-hydrated', function () {
    pageHydrated = true;
    doAgain();
  });
  new MutationObserver(doAgain).observe(html, { attributes: true, attributeFilter: ['data-app-running'] });
  // A signed-in tab's frame: on a narrow screen its tab strip scrolls sideways and
  // the current tab can lie past the edge. Brought into view as MUI's Tabs do it once the app runs,
  // but before a paint shows it elsewhere: animation frame callbacks run right before a paint, and
  // until the parser has given the tab, each one looks again. The box that scrolls is the nearest
  // one around the tab list whose overflow is not visible.
  function showCurrentTab() {
    var tab = document.querySelector('[role="tablist"] > [aria-selected="true"]');
    if (!tab) {
      if (document.readyState === 'loading') requestAnimationFrame(showCurrentTab);
      return;
    }
    var strip = tab.parentElement;
    while (strip && getComputedStyle(strip).overflowX === 'visible') strip = strip.parentElement;
    if (!strip) return;
    var box = strip.getBoundingClientRect();
    var place = tab.getBoundingClientRect();
    if (place.left < box.left || place.right > box.right) {
      strip.scrollLeft += place.left - box.left - (box.width - place.width) / 2;
    }
  }
  requestAnimationFrame(showCurrentTab);
})();
