import { createElement, lazy, type ComponentType } from 'react';

export interface LazyPage {
  (props: object): ReturnType<typeof createElement>;
  /** Loads the page's chunk; once loaded the page renders without suspending. */
  preload(): Promise<void>;
}

/**
 * A route page in its own chunk. Unlike a bare React.lazy, a page whose chunk was preloaded renders
 * at once: boot.tsx preloads the prerendered page before hydrating, so hydration never suspends
 * (a suspended boundary that receives a theme update would drop the server HTML and flash).
 */
export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loaded: ComponentType | undefined;
  const preload = () =>
    load().then((component) => {
      loaded = component;
      return component;
    });
  const Suspending = lazy(() => preload().then((component) => ({ default: component })));
  const Page = (props: object) => createElement(loaded ?? Suspending, props);
  Page.preload = async () => {
    await preload();
  };
  return Page;
}
