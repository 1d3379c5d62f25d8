// The top bar's menus, drawer and theme toggle, inlined into every page's <head> (allowed by its CSP
// hash). They are the platform's own elements (decision 053): a menu is a `popover` opened by its
// button's `popovertarget`, the drawer a modal <dialog>. The browser opens, closes and light-dismisses
// them without any script; this one adds what a menu button owes a keyboard and a screen reader, so
// every page behaves the same whether or not React runs on it. Listeners sit on the document, so they
// serve the markup however it arrived (prerendered or rendered by the app).
(function () {
  var html = document.documentElement;

  // A signed-in person's account menu offers Studio and Log Out; CSS reads this attribute.
  function showSession() {
    try {
      html.toggleAttribute('data-signed-in', Boolean(localStorage.getItem('access_token')));
    } catch {
      // Storage can be blocked: signed out.
    }
  }
  showSession();
  window.addEventListener('storage', showSession);

  function visibleItems(menu) {
    return Array.prototype.filter.call(menu.querySelectorAll('[role^="menuitem"]'), function (item) {
      return item.getClientRects().length > 0;
    });
  }

  function invokerOf(popover) {
    return document.querySelector('[popovertarget="' + popover.id + '"]');
  }

  // `toggle` does not bubble: listen while it goes down.
  document.addEventListener(
    'toggle',
    function (event) {
      var popover = event.target;
      if (!(popover instanceof HTMLElement) || !popover.hasAttribute('popover')) return;
      var invoker = invokerOf(popover);
      if (event.newState !== 'open') {
        if (invoker) invoker.removeAttribute('aria-expanded');
        return;
      }
      if (invoker) {
        invoker.setAttribute('aria-expanded', 'true');
        // Below its button where CSS anchor positioning is missing (the stylesheet does it elsewhere).
        if (!CSS.supports('position-area: bottom')) {
          var place = invoker.getBoundingClientRect();
          popover.style.top = place.bottom + 'px';
          popover.style.left = Math.max(8, Math.min(place.left, innerWidth - popover.offsetWidth - 8)) + 'px';
        }
      }
      var menu = popover.querySelector('[role="menu"]');
      var first = menu && visibleItems(menu)[0];
      if (first) first.focus();
    },
    true,
  );

  // Arrow keys, Home, End and a first letter move between a menu's items (unless the app's MenuList
  // already did: this listener on window hears the key after React's on the document); Space chooses
  // an item; Tab leaves and closes the menu.
  window.addEventListener('keydown', function (event) {
    var item = event.target;
    var menu = item instanceof Element ? item.closest('[popover] [role="menu"]') : null;
    if (!menu) return;
    var items = visibleItems(menu);
    var at = items.indexOf(item);
    var next;
    if (event.key === ' ') {
      event.preventDefault();
      item.click();
      return;
    }
    if (event.key === 'Tab') {
      event.preventDefault();
      var popover = menu.closest('[popover]');
      popover.hidePopover();
      var invoker = invokerOf(popover);
      if (invoker) invoker.focus();
      return;
    }
    if (event.defaultPrevented) return;
    if (event.key === 'ArrowDown') next = items[(at + 1) % items.length];
    else if (event.key === 'ArrowUp') next = items[(at - 1 + items.length) % items.length];
    else if (event.key === 'Home') next = items[0];
    else if (event.key === 'End') next = items[items.length - 1];
    else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      var key = event.key.toLowerCase();
      for (var step = 1; step <= items.length && !next; step += 1) {
        var candidate = items[(at + step) % items.length];
        if ((candidate.textContent || '').trim().toLowerCase().startsWith(key)) next = candidate;
      }
    }
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });

  // The drawer keeps Tab inside: from its last link to its first, and back.
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Tab' || !(event.target instanceof Element)) return;
    var dialog = event.target.closest('dialog[open]');
    if (!dialog) return;
    var links = dialog.querySelectorAll('a[href], button');
    if (links.length === 0) return;
    var first = links[0];
    var last = links[links.length - 1];
    var wrapTo = null;
    if (event.shiftKey && (event.target === first || event.target === dialog)) wrapTo = last;
    else if (!event.shiftKey && event.target === last) wrapTo = first;
    if (wrapTo) {
      event.preventDefault();
      wrapTo.focus();
    }
  });

  document.addEventListener('click', function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;

    // The drawer: its button names the dialog; the dialog itself takes focus, as a drawer does.
    var opener = target.closest('[data-opens-dialog]');
    if (opener) {
      var dialog = document.getElementById(opener.getAttribute('data-opens-dialog'));
      if (dialog && !dialog.open) {
        dialog.showModal();
        dialog.focus();
      }
      return;
    }
    // A click on the backdrop (outside the dialog's box) closes it.
    if (target.tagName === 'DIALOG' && target.open) {
      var box = target.getBoundingClientRect();
      var inside =
        event.clientX >= box.left &&
        event.clientX <= box.right &&
        event.clientY >= box.top &&
        event.clientY <= box.bottom;
      if (!inside) target.close();
      return;
    }
    // A link chosen in a menu or the drawer: when the app moves to it without loading a page, the
    // menu must close all the same.
    var link = target.closest('a[href]');
    if (link) {
      var open = link.closest('[popover]:popover-open');
      if (open) open.hidePopover();
      var drawer = link.closest('dialog[open]');
      if (drawer) drawer.close();
      return;
    }
    // The theme toggle, while the app does not run (when it does, MUI's colour-scheme state does it).
    if (target.closest('[data-theme-toggle]') && !html.hasAttribute('data-app-running')) {
      var dark = !html.classList.contains('dark');
      html.classList.remove('light', 'dark');
      html.classList.add(dark ? 'dark' : 'light');
      try {
        localStorage.setItem('mui-mode', dark ? 'dark' : 'light');
      } catch {
        // Storage can be blocked: the choice lasts this page.
      }
    }
  });

  // A page that runs the app on the person's first interaction (decision 058) holds the app's
  // scripts in a <template> (build/finish-build.ts): the first sign of a person puts them in its
  // place, and the app loads and takes the page over.
  var firstSigns = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'focusin'];
  function startApp() {
    var held = document.querySelector('template[data-app-scripts]');
    if (!held) return;
    firstSigns.forEach(function (type) {
      document.removeEventListener(type, startApp, true);
    });
    held.replaceWith(document.importNode(held.content, true));
  }
  firstSigns.forEach(function (type) {
    document.addEventListener(type, startApp, { capture: true, passive: true });
  });
})();
