import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { pageMetaFor } from './page-meta.js';

/** Keeps <title> and the meta description in step with the route after client-side navigation. */
export function usePageMeta(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const meta = pageMetaFor(pathname);
    document.title = meta.title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', meta.description);
  }, [pathname]);
}
