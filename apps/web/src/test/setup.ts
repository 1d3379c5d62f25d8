import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './api-server.js';

// As vitest's testTimeout: on a busy shared machine a table of rows (each action with its MUI Tooltip)
// can take longer than Testing Library's default second to appear; a slow moment is not a failure.
configure({ asyncUtilTimeout: 5_000 });

// The network of every test (src/test/api-server.ts): a request no handler answers is an error.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  server.resetHandlers();
  server.events.removeAllListeners();
});

afterAll(() => server.close());
