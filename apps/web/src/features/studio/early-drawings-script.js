// A showcase report's frame (decision 064), inlined right after its markup by showcase-frame.tsx
// (allowed by its CSP hash): each chart box the frame holds names the server's drawing of it at the
// default parameters (`data-early-drawing`, without theme and width). Asked for now, as the HTML
// arrives, with the session's token, and put in the box when it comes, so the chart is on screen
// before the app has run; the app takes the same answer (chart/early-drawings.ts) instead of asking
// again. Not with parameters in the address: the frame's boxes are for the defaults. The SVG is the
// server's, checked safe to inline there. The frame writes in the session's storage keys (lib/session.ts).
(function () {
  var html = document.documentElement;
  var drawings = (window.earlyChartDrawings = {});
  function askForDrawing(box, address, token) {
    var theme = html.classList.contains('dark') ? 'dark' : 'light';
    var entry = { theme: theme, width: Math.round(box.clientWidth) };
    entry.svg = fetch(address + '&theme=' + theme + '&width=' + entry.width, {
      headers: {
        Accept: 'image/svg+xml',
        Authorization: 'Bearer ' + token,
        // eslint-disable-next-line no-undef
        'X-Tenant-ID': localStorage.getItem(STORAGE_KEYS.selectedTenantId) || '',
      },
    })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .catch(function () {
        return null;
      })
      .then(function (svg) {
        entry.text = svg;
        if (svg && box.isConnected && !box.firstChild) {
          box.innerHTML = svg;
          if (box.firstElementChild) box.firstElementChild.setAttribute('aria-hidden', 'true');
        }
        return svg;
      });
    drawings[address] = entry;
  }
  var token = null;
  try {
    // eslint-disable-next-line no-undef
    token = localStorage.getItem(STORAGE_KEYS.accessToken);
  } catch {
    // Storage can be blocked: the app asks for the drawings itself.
  }
  if (!token || location.search) return;
  var boxes = document.querySelectorAll('[data-early-drawing]');
  for (var index = 0; index < boxes.length; index++) {
    var address = boxes[index].getAttribute('data-early-drawing');
    // The token goes to this site's API only, whatever a box says.
    if (address.indexOf('/api/v1/studio/') !== 0 || drawings[address]) continue;
    askForDrawing(boxes[index], address, token);
  }
})();
