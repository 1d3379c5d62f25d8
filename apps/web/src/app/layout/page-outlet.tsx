import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';

/** The event app/pre-paint.js waits for before it makes again what a person did before the app ran. */
const PAGE_HYDRATED_EVENT = 'app:page-hydrated';

/** Its effect runs once the page beside it is the app's: hydrated with it, in the same boundary. */
function PageHydrated() {
  useEffect(() => {
    document.dispatchEvent(new Event(PAGE_HYDRATED_EVENT));
  }, []);
  return null;
}

/**
 * A layout's outlet. React hydrates what a Suspense boundary holds after the rest of the document,
 * so the page's forms are the app's only some tasks after the root's effects have run; the event
 * says when, and a send held before the app ran goes to the form's handler rather than the browser.
 */
export function PageOutlet() {
  return (
    <Suspense fallback={null}>
      <Outlet />
      <PageHydrated />
    </Suspense>
  );
}
