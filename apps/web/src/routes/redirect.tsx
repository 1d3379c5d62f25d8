import { redirect, type ClientLoaderFunctionArgs } from 'react-router';
import { PAGE_REDIRECTS } from '../config/route-table.js';

/**
 * A `redirect` page of the route table, reached by a link inside the app (a document load was sent
 * on by app/pre-paint.js before anything loaded).
 */
export function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const url = new URL(request.url);
  const to = PAGE_REDIRECTS[url.pathname];
  return to ? redirect(`${to}${url.search}${url.hash}`) : null;
}

export default function Redirect() {
  return null;
}
