import { readFileSync } from 'node:fs';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { matchRoutes, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AREA_ROOTS,
  AREAS,
  type AreaEntry,
  ON_INTERACTION_PATHS,
  PAGE_PATHS,
  PAGES,
  pageRunsApp,
  PRERENDERED_PATHS,
} from '../config/route-table.js';
import { clearSession, setAccessToken, setStoredUser } from '../lib/session.js';
import routes from '../routes.js';
import { WEB_PATHS_FILE, webPathsSource } from '../../build/web-paths.js';

/** What a tab's route module exports, as the framework reads it. */
interface TabModule {
  clientLoader?: (args?: unknown) => unknown;
  HydrateFallback?: unknown;
  default?: unknown;
}
const tabModules = import.meta.glob<TabModule>('../routes/*/*.tsx');

/**
 * Every path the route config matches, "/settings/*" for an area (a route with a catch-all child, or
 * a splat route, matches everything below it); the top level's catch-all "*" left out.
 */
function pathsOf(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    if (entry.path === '*') return [];
    const own = entry.index ? parent || '/' : entry.path ? `${parent}/${entry.path}` : parent;
    if (entry.children?.some((child) => child.path === '*')) return [`${own}/*`];
    const nested = entry.children ? pathsOf(entry.children, entry.path ? `${parent}/${entry.path}` : parent) : [];
    return entry.path || entry.index ? [own, ...nested] : nested;
  });
}

/** The route config's entry with this id, wherever it is in the tree. */
function routeWithId(entries: RouteConfigEntry[], id: string): RouteConfigEntry | undefined {
  for (const entry of entries) {
    if (entry.id === id) return entry;
    const found = routeWithId(entry.children ?? [], id);
    if (found) return found;
  }
  return undefined;
}

describe('the route config', () => {
  // The server answers 404 for page paths the contract does not list: its list is generated from the
  // route table, so a page added there is the server's too once the file is written again.
  it("gives the server the route table's pages and areas (the contract's generated list is current)", () => {
    expect(readFileSync(WEB_PATHS_FILE, 'utf8'), 'run: npm run generate:web-paths -w apps/web').toBe(webPathsSource());
    const expected = [...PAGE_PATHS, ...AREA_ROOTS.map((area) => `${area}/*`)];
    expect([...pathsOf(routes)].sort()).toEqual([...expected].sort());
  });

  // /studio is the marketing page; Studio's screens are below it.
  it('matches /studio to the marketing page and the paths below it to the area', () => {
    const objects = (entries: RouteConfigEntry[]): RouteObject[] =>
      entries.map((entry) =>
        entry.index
          ? { id: entry.id, index: true }
          : { id: entry.id, path: entry.path, children: objects(entry.children ?? []) },
      );
    const leaf = (path: string) => matchRoutes(objects(routes), path)?.at(-1)?.route.id;
    expect(leaf('/studio')).toBe('studio');
    expect(leaf('/studio/reports')).toBe('studioApp.reports');
    expect(leaf('/studio/reports/new')).toBe('studioApp.newReport');
    expect(leaf('/studio/reports/a-report')).toBe('studioApp.report');
    expect(leaf('/studio/reports/a-report/edit')).toBe('studioApp.editReport');
    expect(leaf('/studio/no/such/screen')).toBe('studioApp.other');
    expect(leaf('/learn')).toBe('learn.lessons');
    expect(leaf('/learn/first-extract')).toBe('learn.lesson');
  });

  // Each tab a route module of its own, so the page preloads its code (src/routes.ts).
  it("routes each area's tabs, its own path and unknown segments below it", () => {
    for (const [name, area] of Object.entries(AREAS) as [string, AreaEntry][]) {
      const children = routeWithId(routes, name)?.children;
      if (Object.keys(area.tabs).length === 0) {
        // An area without tabs: one route module per screen.
        const screens = Object.values(area.screens ?? {});
        expect(children?.map((child) => [child.index ? '' : child.path, child.file])).toEqual(
          screens.map((screen) => [screen.path, screen.module]),
        );
        continue;
      }
      expect(children?.map((child) => (child.index ? 'index' : child.path))).toEqual([
        'index',
        ...Object.values(area.tabs),
        '*',
      ]);
      for (const [tab, segment] of Object.entries(area.tabs)) {
        expect(routeWithId(routes, `${name}.${tab}`)?.file).toBe(`routes/${name}/${segment}.tsx`);
      }
    }
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

  // A page that runs the app on the first interaction must arrive as HTML (decision 058): there is
  // nothing else to see or fill in until then.
  it('runs the app on the first interaction only on a prerendered page', () => {
    expect(ON_INTERACTION_PATHS).toEqual(['/contact']);
    for (const path of ON_INTERACTION_PATHS) expect(PRERENDERED_PATHS).toContain(path);
  });

  // The guard is each tab's loader (decision 057): deny by default, so a tab without one is a defect.
  describe("each area's tab", () => {
    afterEach(() => clearSession());
    const tabs = Object.entries(AREAS).flatMap(([name, area]) =>
      Object.values(area.tabs).map((segment) => ({ name, file: `../routes/${name}/${segment}.tsx` })),
    );

    it.each(tabs)(
      '$file has a screen, a frame and a guard that sends a visitor without a token to /login',
      async ({ file }) => {
        const tab = await tabModules[file]!();
        expect(tab.default).toBeDefined();
        expect(tab.HydrateFallback).toBeDefined();
        const answer = tab.clientLoader?.();
        expect(answer).toBeInstanceOf(Response);
        expect((answer as Response).headers.get('Location')).toBe('/login');
      },
    );

    // An area without tabs guards its screens itself (they are its children: its loader runs first).
    it.each(['studio-app', 'learn'])('routes/%s.tsx sends a visitor without a token to /login', async (area) => {
      const modules = import.meta.glob<TabModule>('../routes/*.tsx');
      const answer = (await modules[`../routes/${area}.tsx`]!()).clientLoader?.();
      expect((answer as Response).headers.get('Location')).toBe('/login');
    });

    it.each(tabs.filter((tab) => tab.name === 'admin'))('$file lets in a superuser alone', async ({ file }) => {
      const tab = await tabModules[file]!();
      setAccessToken('a-token');
      setStoredUser({ id: 'u1', email: 'user@example.com', full_name: null, is_superuser: false });
      expect((tab.clientLoader?.() as Response).headers.get('Location')).toBe('/login');
      setStoredUser({ id: 'u1', email: 'user@example.com', full_name: null, is_superuser: true });
      expect(tab.clientLoader?.()).toBeNull();
    });
  });
});
