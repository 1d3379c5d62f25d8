import { isValidElement, type ReactElement } from 'react';
import { createRoutesFromChildren, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { WEB_AREA_PATHS, WEB_PAGE_PATHS } from '@dataplatform/contract';
import { AREA_ROOTS, AUTH_PATHS, MARKETING_PATHS, PAGE_PATHS } from '../config/route-table.js';
import { AppRoutes, PRERENDERED_PAGES } from './routes.js';

/** Every path the route tree matches, "/settings/*" for an area; the catch-all "*" left out. */
function pathsOf(routes: RouteObject[], parent = ''): string[] {
  return routes.flatMap((route) => {
    if (route.path === '*') return [];
    const own = route.index ? parent || '/' : route.path ? `${parent}/${route.path}` : parent;
    const nested = route.children ? pathsOf(route.children, route.path ? `${parent}/${route.path}` : parent) : [];
    return route.path || route.index ? [own, ...nested] : nested;
  });
}

describe('the route tree', () => {
  // The server answers 404 for page paths the contract does not list: a page added here but not
  // there would be served with the wrong status.
  it('has exactly the pages and areas the contract lists', () => {
    const tree = AppRoutes() as ReactElement<{ children: ReactElement[] }>;
    expect(isValidElement(tree)).toBe(true);
    const paths = pathsOf(createRoutesFromChildren(tree.props.children));
    const expected = [...WEB_PAGE_PATHS, ...WEB_AREA_PATHS.map((area) => `${area}/*`)];
    expect([...paths].sort()).toEqual([...expected].sort());
  });

  // Until the server imports the route table, the contract keeps its own copy of the page paths.
  it("lists the route table's pages and areas, as the contract does", () => {
    expect([...PAGE_PATHS].sort()).toEqual([...WEB_PAGE_PATHS].sort());
    expect([...AREA_ROOTS].sort()).toEqual([...WEB_AREA_PATHS].sort());
  });

  it("preloads exactly the route table's prerendered pages", () => {
    expect(Object.keys(PRERENDERED_PAGES).sort()).toEqual([...MARKETING_PATHS, ...AUTH_PATHS].sort());
  });
});
