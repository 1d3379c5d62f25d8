import { render, screen, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AboutUsPage } from './about-us-page.js';
import { DataEngineeringPage } from './data-engineering-page.js';
import { HighScaleTableauPage } from './high-scale-tableau-page.js';
import { StudioPage } from './studio-page.js';
import { TransparencyPipelinePage } from './transparency-pipeline-page.js';

// The marketing claims (MKT-CLAIM-*) and page contents (MKT-PAGES-*), read as a visitor reads them:
// headings, the table's row headers, the list, the images' text alternatives. The markup around them
// may change freely.

function renderPage(Page: ComponentType) {
  render(
    <MemoryRouter>
      <Page />
    </MemoryRouter>,
  );
}

function expectHeadings(names: readonly string[]) {
  for (const name of names) expect(screen.getByRole('heading', { name })).toBeVisible();
}

describe('the Studio page', () => {
  it('claims a production-ready app foundation with its seven parts (MKT-CLAIM-1)', () => {
    renderPage(StudioPage);
    expectHeadings([
      'A production-ready app foundation',
      'ORM and migrations',
      'REST APIs',
      'Authentication and authorization',
      'An AI agent',
      'A reporting engine',
      'Card payment integration',
    ]);
  });

  it('claims precision-guided AI prompts, declarative web-based reporting and a learning platform (MKT-CLAIM-2)', () => {
    renderPage(StudioPage);
    expectHeadings(['Precision-guided AI prompts', 'Declarative web-based reporting', 'A learning platform']);
  });

  it('compares Studio with a desktop BI tool on the nine features of MKT-CLAIM-3, quoting 64MB and 10GB (MKT-CLAIM-4)', () => {
    renderPage(StudioPage);
    const table = screen.getByRole('table', { name: /comparison between Studio and a typical desktop BI tool/ });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Feature', 'Studio', 'Typical desktop BI tool']);
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Data sources',
      'Data source configuration',
      'Visualization',
      'Multitenancy',
      'Pagination',
      'Web native',
      'Single sign-on',
      'Maintenance',
      'Cost',
    ]);
    // Every feature has both sides filled in.
    for (const row of within(table).getAllByRole('row').slice(1)) {
      const cells = within(row).getAllByRole('cell');
      expect(cells).toHaveLength(2);
      for (const cell of cells) expect(cell.textContent?.trim()).not.toBe('');
    }
    const dataSources = within(table).getByRole('row', { name: /^Data sources / });
    expect(within(dataSources).getByRole('cell', { name: /up to 10GB/ })).toBeVisible();
    expect(within(dataSources).getByRole('cell', { name: /64MB/ })).toBeVisible();
  });

  it('lists its tech stack and names its images (MKT-PAGES-2)', () => {
    renderPage(StudioPage);
    expect(screen.getByRole('heading', { name: 'The tech stack' })).toBeVisible();
    const stack = screen.getByRole('list', { name: 'Technologies' });
    expect(
      within(stack)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'TypeScript',
      'React',
      'Material UI',
      'Fastify',
      'PostgreSQL',
      'Drizzle ORM',
      'zod',
      'OpenAPI',
      'Stripe',
      'Playwright',
      'Vitest',
    ]);
    expect(screen.getByRole('img', { name: /Studio report/ })).toBeVisible();
  });
});

describe('the High-Scale Tableau page', () => {
  it('offers high-scale deployments with automated site replication and external extracts up to 10GB (MKT-CLAIM-4)', () => {
    renderPage(HighScaleTableauPage);
    expectHeadings(['High-scale Tableau deployments', 'Automated site replication', 'External extract processing']);
    expect(screen.getByText(/Extract files are built outside the BI server/)).toHaveTextContent(
      /handled data sources of up to 10GB/,
    );
  });
});

describe('the Data Engineering page', () => {
  it('offers consulting on cloud, data lakes, performance, cost and security (MKT-CLAIM-5)', () => {
    renderPage(DataEngineeringPage);
    expectHeadings([
      'Data engineering and analytics consulting',
      'Cloud',
      'Data lakes',
      'Performance',
      'Cost',
      'Security',
    ]);
  });
});

describe('the Transparency Pipeline page', () => {
  it('explains the data volumes (payers, plans, providers, CPT codes) and how they are reduced (MKT-PAGES-1)', () => {
    renderPage(TransparencyPipelinePage);
    expectHeadings(['Massive data volumes', 'Payers', 'Plans', 'Providers', 'CPT codes', 'Reduction strategies']);
    expect(screen.getByText(/terabytes of raw files to gigabytes/)).toBeVisible();
  });
});

describe('the About Us page', () => {
  it('tells the story, the vision, the founder’s biography and the mission (MKT-PAGES-3)', () => {
    renderPage(AboutUsPage);
    expectHeadings(['Our story', 'Our vision', 'Our founder', 'Our mission']);
    expect(screen.getByText(/Our founder has worked for more than fifteen years/)).toBeVisible();
  });
});

describe('every marketing page', () => {
  it.each([
    ['/studio', StudioPage],
    ['/about-us', AboutUsPage],
    ['/data-engineering', DataEngineeringPage],
    ['/high-scale-tableau', HighScaleTableauPage],
    ['/transparency-pipeline', TransparencyPipelinePage],
  ])('%s has one h1 and a text alternative for each image', (_path, Page) => {
    renderPage(Page);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const images = screen.getAllByRole('img');
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image).toHaveAccessibleName(/\w{3}/);
  });
});

// These pages ship without the app's scripts (decision 053): nothing on them may need React to work.
describe.each([
  ['Studio', StudioPage],
  ['About Us', AboutUsPage],
  ['Data Engineering', DataEngineeringPage],
  ['High-Scale Tableau', HighScaleTableauPage],
  ['Transparency Pipeline', TransparencyPipelinePage],
] as const)('the %s page', (_name, Page) => {
  it('holds no form, no button and no text field: its links are all it offers', () => {
    renderPage(Page);
    expect(document.querySelector('form')).toBeNull();
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(screen.queryAllByRole('textbox')).toEqual([]);
    expect(screen.getAllByRole('link').length).toBeGreaterThan(0);
  });
});
