import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './api-server.js';

// As vitest's testTimeout: on a busy shared machine a table of rows (each action with its MUI Tooltip)
// can take longer than Testing Library's default second to appear; a slow moment is not a failure.
configure({ asyncUtilTimeout: 5_000 });

// jsdom knows the popover attribute (its stylesheet hides a closed one) but not its methods. Opening
// and closing a menu is the browser's work, proven by the e2e specs; here a chosen item's
// closePopupMenu (components/popup-menu.tsx) needs the method to exist.
HTMLElement.prototype.hidePopover ??= () => undefined;

// The network of every test (src/test/api-server.ts). A request no handler answers is an error: fetch
// rejects, MSW prints it, and the test fails after it even if the screen took the failure in its stride.
const unhandled: string[] = [];
const recordUnhandled = () =>
  server.events.on('request:unhandled', ({ request }) => unhandled.push(`${request.method} ${request.url}`));
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  recordUnhandled();
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  server.resetHandlers();
  server.events.removeAllListeners();
  recordUnhandled();
  const calls = unhandled.splice(0);
  if (calls.length > 0) throw new Error(`Requests no handler of src/test/api-server.ts answered: ${calls.join(', ')}`);
});

afterAll(() => server.close());
