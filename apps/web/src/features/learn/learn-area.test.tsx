import type { Lesson, Lessons } from '@dataplatform/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../lib/session.js';
import { serveApi } from '../../test/api-server.js';
import { renderWithFreshClient } from '../../test/render-in-app.js';
import { LearnLayout, LessonList, LessonPage } from './learn-area.js';

const TENANT = { id: 'tenant-1', name: 'Acme Health' };

const LESSONS: Lessons = {
  data: [
    {
      slug: 'first-extract',
      title: 'Your first extract',
      summary: 'Upload a file as a table.',
      minutes: 5,
      order: 1,
      steps: 2,
      steps_done: 1,
    },
  ],
  count: 1,
};

const LESSON: Lesson = {
  slug: 'first-extract',
  title: 'Your first extract',
  summary: 'Upload a file as a table.',
  minutes: 5,
  order: 1,
  steps_done: 0,
  intro_markdown: 'An extract is a file.',
  intro_html: '<p>An extract is a file.</p>',
  steps: [
    {
      id: 'upload-sample',
      title: '1. Upload the sample file',
      markdown: 'Upload it.',
      html: '<p>Upload it.</p>',
      link: '/studio/sources',
      check: { kind: 'extract_exists', min_rows: 1, count: 1 },
      done: false,
    },
    {
      id: 'upload-own',
      title: '2. Upload a file of your own',
      markdown: 'Another.',
      html: '<p>Another.</p>',
      link: '/studio/sources',
      check: { kind: 'extract_exists', min_rows: 1, count: 2 },
      done: false,
    },
  ],
};

/** The API: the caller's tenants, the lessons, and checks that find the first step done. */
function serve(calls: string[]) {
  serveApi((url, call) => {
    calls.push(`${call.method} ${url} ${call.headers.get('x-tenant-id') ?? ''}`);
    if (url.startsWith('/api/v1/users/me/tenants')) return Response.json({ data: [TENANT], count: 1 });
    if (url === '/api/v1/learn/lessons') return Response.json(LESSONS);
    if (url === '/api/v1/learn/lessons/first-extract') return Response.json(LESSON);
    if (url === '/api/v1/learn/lessons/first-extract/check') {
      return Response.json({
        steps: [
          { id: 'upload-sample', done: true, detail: '1 extract with at least 1 row in Acme Health' },
          {
            id: 'upload-own',
            done: false,
            detail: 'Only 1 of the 2 extracts with at least 1 row in Acme Health: upload another file in Studio',
          },
        ],
      });
    }
    if (url === '/api/v1/learn/progress/first-extract') return new Response(null, { status: 204 });
    return Response.json({ detail: 'Not Found', code: 'lesson_not_found' }, { status: 404 });
  });
}

function renderAt(path: string) {
  return renderWithFreshClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        {/* As the route table nests them (routes/learn/). */}
        <Route path="/learn" element={<LearnLayout />}>
          <Route index element={<LessonList />} />
          <Route path=":slug" element={<LessonPage />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
  localStorage.setItem(STORAGE_KEYS.selectedTenantId, TENANT.id);
});

describe('Learn (issue 60)', () => {
  it('lists the lessons with the progress in the chosen tenant', async () => {
    serve([]);
    renderAt('/learn');
    expect(screen.getByRole('heading', { level: 1, name: 'Learn' })).toBeVisible();
    const lesson = await screen.findByRole('link', { name: '1. Your first extract' });
    expect(lesson).toHaveAttribute('href', '/learn/first-extract');
    expect(screen.getByText('1 of 2 steps done')).toBeVisible();
    expect(screen.getByRole('progressbar', { name: 'Progress in Your first extract' })).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
    expect(await screen.findByText('Acme Health')).toBeVisible();
  });

  it('checks the work in the tenant and says per step done or what is missing, then resets', async () => {
    const user = userEvent.setup();
    const calls: string[] = [];
    serve(calls);
    renderAt('/learn/first-extract');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your first extract' })).toBeVisible();
    const first = screen.getByRole('listitem', { name: '1. Upload the sample file' });
    expect(within(first).getByText('Not done yet')).toBeVisible();
    expect(within(first).getByRole('link', { name: 'Open Sources' })).toHaveAttribute('href', '/studio/sources');

    await user.click(screen.getByRole('button', { name: 'Check my work' }));
    expect(await within(first).findByText('Done')).toBeVisible();
    expect(within(first).getByText('1 extract with at least 1 row in Acme Health')).toBeVisible();
    const second = screen.getByRole('listitem', { name: '2. Upload a file of your own' });
    expect(within(second).getByText(/Only 1 of the 2 extracts .* upload another file in Studio/)).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Checked: 1 of 2 steps done. Each step says what is missing.');
    expect(calls).toContain('POST /api/v1/learn/lessons/first-extract/check tenant-1');

    await user.click(screen.getByRole('button', { name: 'Reset my progress' }));
    expect(await screen.findByText(/Your progress in this lesson is reset/)).toBeVisible();
    expect(calls).toContain('DELETE /api/v1/learn/progress/first-extract tenant-1');
    expect(within(first).getByText('Not done yet')).toBeVisible();
  });

  it('says an unknown lesson is not there, and links to the list', async () => {
    serve([]);
    renderAt('/learn/no-such-lesson');
    expect(await screen.findByText(/There is no such lesson here/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'See the lessons there are' })).toHaveAttribute('href', '/learn');
  });

  it('without a tenant chosen, says how to choose one and does not offer a check', async () => {
    localStorage.removeItem(STORAGE_KEYS.selectedTenantId);
    serve([]);
    renderAt('/learn/first-extract');
    expect(await screen.findByText(/choose one of your tenants with the tenant switcher/)).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Check my work' })).toBeDisabled();
  });
});
