import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app.js';
import { PRERENDERED_PAGES } from './app/routes.js';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

const app = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>
);

// Prerendered marketing pages arrive with their markup: load the page's chunk (already preloaded by
// the HTML), then hydrate without suspending, as a transition so React hydrates in short slices and
// the page stays responsive meanwhile. Every other route starts empty.
if (container.hasChildNodes()) {
  const page = PRERENDERED_PAGES[window.location.pathname];
  void (page ? page.preload() : Promise.resolve()).finally(() =>
    startTransition(() => {
      hydrateRoot(container, app);
    }),
  );
} else {
  createRoot(container).render(app);
}
