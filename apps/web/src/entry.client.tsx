import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { startEarlyData } from './app/early-data.js';

// React Router's own client entry, after starting the data of the page being opened
// (app/early-data.ts).
startEarlyData(window.location);
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
