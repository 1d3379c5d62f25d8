import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LESSON_CHECK_FEATURES, LEARN_FEATURES } from '@dataplatform/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSON_SLUGS_IN_ORDER } from '../../../test/learn-fixtures.js';
import { learnFeatures } from './features.js';
import { LessonFileError, loadLessonFiles, parseLessonFile } from './lesson-files.js';

const GOOD = `---
title: A lesson
summary: What it teaches.
minutes: 5
order: 1
requires: [extracts]
---

Intro.

## Do a thing

Text.

\`\`\`check
id: thing
link: /studio/sources
check: { kind: extract_exists, min_rows: 1 }
\`\`\`
`;

/** The error parsing `text` as `name` throws. */
function problemOf(text: string, name = 'a-lesson.md'): LessonFileError {
  try {
    parseLessonFile(name, text);
  } catch (error) {
    if (error instanceof LessonFileError) return error;
    throw error;
  }
  throw new Error('the lesson parsed');
}

describe('lesson files (issue 60)', () => {
  it('the lessons that ship all fit the schema: at least six, ordered, every check one the contract knows', () => {
    const lessons = loadLessonFiles();
    expect(lessons.length).toBeGreaterThanOrEqual(6);
    expect(lessons.map((lesson) => lesson.order)).toEqual(
      [...lessons.map((lesson) => lesson.order)].sort((a, b) => a - b),
    );
    for (const lesson of lessons) {
      expect(lesson.steps.length, lesson.slug).toBeGreaterThan(0);
      for (const step of lesson.steps) {
        expect(Object.keys(LESSON_CHECK_FEATURES), `${lesson.slug}/${step.id}`).toContain(step.check.kind);
        expect(step.requires).toContain(LESSON_CHECK_FEATURES[step.check.kind]);
        expect(step.markdown).not.toContain('```check');
      }
    }
    expect(lessons.map((lesson) => lesson.slug)).toEqual(LESSON_SLUGS_IN_ORDER);
  });

  it('reads a step: its title, its Markdown without the check block, its link and its check', () => {
    const lesson = parseLessonFile('a-lesson.md', GOOD);
    expect(lesson).toMatchObject({ slug: 'a-lesson', title: 'A lesson', intro: 'Intro.', requires: ['extracts'] });
    expect(lesson.steps).toEqual([
      {
        id: 'thing',
        title: 'Do a thing',
        markdown: 'Text.',
        link: '/studio/sources',
        requires: ['extracts'],
        check: { kind: 'extract_exists', min_rows: 1, count: 1 },
      },
    ]);
  });

  it('refuses an unknown check, naming the file and the line', () => {
    const problem = problemOf(GOOD.replace('kind: extract_exists, min_rows: 1', 'kind: dashboard_exists'));
    expect(problem.file).toBe('a-lesson.md');
    expect(problem.line).toBe(18);
    expect(problem.message).toMatch(/^a-lesson\.md:18: the check \(check\.kind\)/);
  });

  it('refuses a misspelt key in a check and in the front matter, at its line', () => {
    expect(problemOf(GOOD.replace('min_rows: 1', 'min_row: 1')).line).toBe(18);
    const front = problemOf(GOOD.replace('minutes: 5', 'minutes: five'));
    expect(front.message).toMatch(/^a-lesson\.md:4: the front matter \(minutes\)/);
  });

  it('refuses YAML that does not parse, a step without a check, a link that is no page and a check whose feature is not required', () => {
    expect(problemOf(GOOD.replace('order: 1', 'order: [1')).message).toMatch(
      /^a-lesson\.md:\d+: the front matter is not valid YAML/,
    );
    expect(problemOf(GOOD.replace(/```check[\s\S]*```\n/, '')).message).toMatch(
      /^a-lesson\.md:11: a step has one ```check block/,
    );
    expect(problemOf(GOOD.replace('/studio/sources', '/nowhere')).message).toMatch(
      /:17: the link \/nowhere is not a page/,
    );
    expect(problemOf(GOOD.replace('requires: [extracts]', 'requires: []')).message).toMatch(
      /:18: the check extract_exists needs the feature "extracts"/,
    );
    expect(problemOf('No front matter.\n').message).toMatch(/^a-lesson\.md:1: a lesson starts with front matter/);
    expect(problemOf(GOOD, 'A Lesson.md').message).toMatch(/named by its slug/);
  });

  describe('a folder of lessons', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'lessons-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('refuses to load when one file does not fit (so the server does not start), naming it', async () => {
      await writeFile(path.join(dir, 'good.md'), GOOD);
      await writeFile(
        path.join(dir, 'bad.md'),
        GOOD.replace('order: 1', 'order: 2').replace('link: /studio/sources', 'link: studio'),
      );
      expect(() => loadLessonFiles(dir)).toThrow(`${path.join(dir, 'bad.md')}:17: the check (link)`);
      await writeFile(path.join(dir, 'bad.md'), GOOD);
      expect(() => loadLessonFiles(dir)).toThrow(/good\.md:1: order 1 is taken by bad/);
    });
  });

  it('knows every feature a check needs; schedules are in, the agent only with a model', () => {
    for (const feature of Object.values(LESSON_CHECK_FEATURES)) expect(LEARN_FEATURES).toContain(feature);
    expect([...learnFeatures({ agentModel: false })].sort()).toEqual([
      'extracts',
      'reports',
      'schedules',
      'sharing',
      'tenant_databases',
    ]);
    expect(learnFeatures({ agentModel: true }).has('agent')).toBe(true);
  });
});
