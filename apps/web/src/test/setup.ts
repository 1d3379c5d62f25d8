import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// As vitest's testTimeout: on a busy shared machine a table of rows (each action with its MUI Tooltip)
// can take longer than Testing Library's default second to appear; a slow moment is not a failure.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
