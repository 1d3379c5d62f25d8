import { WEB_AREA_PATHS, WEB_PAGE_PATHS } from '@dataplatform/contract';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { describe, expect, it } from 'vitest';
import { AREA_ROOTS, PAGE_PATHS, PAGES, pageRunsApp } from '../config/route-table.js';
import routes from '../routes.js';

/** Every path the route config matches, "/settings/*" for an area; the catch-all "*" left out. */
function pathsOf(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    if (entry.path === '*') return [];
    const own = entry.index ? parent || '/' : entry.path ? `${parent}/${entry.path}` : parent;
    const nested = entry.children ? pathsOf(entry.children, entry.path ? `${parent}/${entry.path}` : parent) : [];
    return entry.path || entry.index ? [own, ...nested] : nested;
  });
}

describe('the route config', () => {
  // The server answers 404 for page paths the contract does not list: a page added here but not
  // there would be served with the wrong status.
  it('has exactly the pages and areas the contract lists', () => {
    const expected = [...WEB_PAGE_PATHS, ...WEB_AREA_PATHS.map((area) => `${area}/*`)];
    expect([...pathsOf(routes)].sort()).toEqual([...expected].sort());
  });

  // Until the server imports the route table, the contract keeps its own copy of the page paths.
  it("lists the route table's pages and areas, as the contract does", () => {
    expect([...PAGE_PATHS].sort()).toEqual([...WEB_PAGE_PATHS].sort());
    expect([...AREA_ROOTS].sort()).toEqual([...WEB_AREA_PATHS].sort());
  });

  it('gives every route a unique id', () => {
    const ids = (entries: RouteConfigEntry[]): string[] =>
      entries.flatMap((entry) => [entry.id ?? entry.file, ...ids(entry.children ?? [])]);
    const all = ids(routes);
    expect(new Set(all).size).toBe(all.length);
  });

  // A page without the app's scripts can hold no form (the contact page keeps them) and must be
  // prerendered, or it would be an empty page.
  it('ships without scripts only marketing pages that hold no form', () => {
    const staticPages = PAGES.filter((page) => !pageRunsApp(page.name));
    expect(staticPages.map((page) => page.path)).toEqual([
      '/studio',
      '/about-us',
      '/data-engineering',
      '/high-scale-tableau',
      '/transparency-pipeline',
    ]);
    for (const page of staticPages) expect(page.kind).toBe('marketing');
  });
});
