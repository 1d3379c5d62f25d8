import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  blockKind,
  learnMessages,
  parseReportDefinition,
  type LearnFeature,
  type Lesson,
  type LessonCheck,
  type LessonCheckResult,
  type Lessons,
} from '@dataplatform/contract';
import { reportTextHtml } from '@dataplatform/contract/markdown';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { LESSONS_DIR, type LessonFile, type LessonStepFile } from './lesson-files.js';
import {
  countExtracts,
  currentReports,
  deleteProgress,
  hasAgentDraftedVersion,
  hasLiveShareLink,
  hasLiveSchedule,
  mostVersions,
  progressOf,
  replaceProgress,
} from './learn.repository.js';

/** The tenant a lesson is checked in, as the tenant-context plugin resolved it (null: none chosen). */
export interface LearnTenant {
  id: string;
  name: string;
  /** Set when the tenant has its own database. */
  sealedDburl: string | null;
}

/** The sample files the lessons ship (lessons/samples), by the name a lesson links to. */
const SAMPLES = { 'seattle-weather.csv': 'text/csv; charset=utf-8' } as const;
export type SampleName = keyof typeof SAMPLES;
export const isSampleName = (name: string): name is SampleName => Object.hasOwn(SAMPLES, name);

const lessonNotFound = () => new AppError('lesson_not_found', learnMessages.lessonNotFound);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Learn (issue 60): the lessons whose features are all there, each step's check evaluated on the
 * caller's tenant, and the caller's progress per tenant (the steps the last check found done).
 */
export function createLearnService(deps: {
  db: Database;
  clock: Clock;
  lessons: readonly LessonFile[];
  features: ReadonlySet<LearnFeature>;
}) {
  const { db, clock, features } = deps;
  const has = (needs: readonly LearnFeature[]) => needs.every((feature) => features.has(feature));
  /** The lessons shown, each with only the steps shown: a lesson left with no step is hidden. */
  const shown = deps.lessons
    .filter((lesson) => has(lesson.requires))
    .map((lesson) => ({ ...lesson, steps: lesson.steps.filter((step) => has(step.requires)) }))
    .filter((lesson) => lesson.steps.length > 0);
  const bySlug = new Map(shown.map((lesson) => [lesson.slug, lesson]));

  function lessonOf(slug: string): LessonFile {
    const lesson = bySlug.get(slug);
    if (!lesson) throw lessonNotFound();
    return lesson;
  }

  function tenantOf(tenant: LearnTenant | null): LearnTenant {
    if (!tenant) throw badRequest(learnMessages.noTenant);
    return tenant;
  }

  async function doneSteps(userId: string, tenant: LearnTenant | null): Promise<Map<string, Set<string>>> {
    return tenant ? progressOf(db, { userId, tenantId: tenant.id }) : new Map();
  }

  /** Whether the check holds in the tenant, and what was found or is missing, in words. */
  async function evaluate(check: LessonCheck, tenant: LearnTenant): Promise<{ done: boolean; detail: string }> {
    const where = `in ${tenant.name}`;
    switch (check.kind) {
      case 'extract_exists': {
        const found = await countExtracts(db, tenant.id, check.min_rows);
        const wanted = `${plural(check.count, 'extract')} with at least ${plural(check.min_rows, 'row')}`;
        return found >= check.count
          ? {
              done: true,
              detail: `${plural(found, 'extract')} with at least ${plural(check.min_rows, 'row')} ${where}`,
            }
          : {
              done: false,
              detail:
                found === 0
                  ? `No extract with at least ${plural(check.min_rows, 'row')} ${where}: upload ${check.count === 1 ? 'a file' : `${check.count} files`} in Studio`
                  : `Only ${found} of the ${wanted} ${where}: upload another file in Studio`,
            };
      }
      case 'report_exists': {
        const rows = await currentReports(db, tenant.id);
        const wanted = [
          check.source ? `on the ${check.source} source` : '',
          check.block ? `with a ${check.block} block` : '',
          check.page_size_at_most ? `with a table of at most ${check.page_size_at_most} rows a page` : '',
          check.with_param ? 'with a parameter' : '',
        ]
          .filter(Boolean)
          .join(', ');
        const fits = rows.some((row) => {
          if (check.source && row.source !== check.source) return false;
          const parsed = parseReportDefinition(row.definition);
          if (!parsed.ok) return false;
          const { definition } = parsed;
          const blocks = definition.blocks;
          if (check.block && !blocks.some((block) => blockKind(block) === check.block)) return false;
          if (
            check.page_size_at_most !== undefined &&
            !blocks.some(
              (block) =>
                block.table?.page_size !== undefined && block.table.page_size <= (check.page_size_at_most ?? 0),
            )
          ) {
            return false;
          }
          if (check.with_param && Object.keys(definition.params ?? {}).length === 0) return false;
          return true;
        });
        const report = wanted === '' ? 'report' : `report ${wanted}`;
        return fits
          ? { done: true, detail: `A ${report} ${where}` }
          : { done: false, detail: `No ${report} ${where}: save one in Studio's editor` };
      }
      case 'report_versions': {
        const most = await mostVersions(db, tenant.id);
        return most >= check.at_least
          ? { done: true, detail: `A report ${where} has ${plural(most, 'version')}` }
          : {
              done: false,
              detail:
                most === 0
                  ? `No report ${where} yet: save one in Studio's editor`
                  : `No report ${where} has ${check.at_least} versions yet (the most is ${most}): change a report and save it again`,
            };
      }
      case 'tenant_source_connected':
        return tenant.sealedDburl !== null
          ? { done: true, detail: `${tenant.name} has its own database as a Studio source` }
          : {
              done: false,
              detail: `${tenant.name} has no database of its own yet: an administrator sets its database URL`,
            };
      case 'agent_block_added':
        return (await hasAgentDraftedVersion(db, tenant.id))
          ? { done: true, detail: `A report ${where} has a block drafted with the agent` }
          : {
              done: false,
              detail: `No report ${where} has a block from the agent yet: ask the agent, then add its answer to a report`,
            };
      case 'share_link_exists':
        return (await hasLiveShareLink(db, tenant.id, clock.now()))
          ? { done: true, detail: `A report ${where} has a live share link` }
          : { done: false, detail: `No live share link ${where}: share a report from its page` };
      case 'schedule_exists':
        return (await hasLiveSchedule(db, tenant.id))
          ? { done: true, detail: `A report ${where} is mailed on a schedule` }
          : {
              done: false,
              detail: `No report ${where} is mailed on a schedule yet: add one in a report's Schedules tab`,
            };
    }
  }

  const stepTitle = (step: LessonStepFile, index: number) => `${index + 1}. ${step.title}`;
  /** What the list and a lesson's page both say of a lesson first. */
  const headOf = (lesson: LessonFile) => ({
    slug: lesson.slug,
    title: lesson.title,
    summary: lesson.summary,
    minutes: lesson.minutes,
    order: lesson.order,
  });

  return {
    list(userId: string, tenant: LearnTenant | null): Promise<Lessons> {
      return doneSteps(userId, tenant).then((progress) => {
        const data = shown.map((lesson) => {
          const done = progress.get(lesson.slug) ?? new Set();
          return {
            ...headOf(lesson),
            steps: lesson.steps.length,
            steps_done: lesson.steps.filter((step) => done.has(step.id)).length,
          };
        });
        return { data, count: data.length };
      });
    },

    async get(userId: string, tenant: LearnTenant | null, slug: string): Promise<Lesson> {
      const lesson = lessonOf(slug);
      const done = (await doneSteps(userId, tenant)).get(slug) ?? new Set();
      const steps = lesson.steps.map((step, index) => ({
        id: step.id,
        title: stepTitle(step, index),
        markdown: step.markdown,
        html: reportTextHtml(step.markdown),
        link: step.link,
        check: step.check,
        done: done.has(step.id),
      }));
      return {
        ...headOf(lesson),
        intro_markdown: lesson.intro,
        intro_html: reportTextHtml(lesson.intro),
        steps,
        steps_done: steps.filter((step) => step.done).length,
      };
    },

    /** Evaluates every step of the lesson now and keeps the outcome as the caller's progress. */
    async check(userId: string, tenant: LearnTenant | null, slug: string): Promise<LessonCheckResult> {
      const lesson = lessonOf(slug);
      const scope = tenantOf(tenant);
      const steps = [];
      for (const step of lesson.steps) steps.push({ id: step.id, ...(await evaluate(step.check, scope)) });
      await replaceProgress(
        db,
        { userId, tenantId: scope.id },
        slug,
        steps.filter((step) => step.done).map((step) => step.id),
        clock.now(),
      );
      return { steps };
    },

    /** Forgets the caller's progress in the lesson (the tenant's work stays: the next check sees it). */
    async reset(userId: string, tenant: LearnTenant | null, slug: string): Promise<void> {
      lessonOf(slug);
      await deleteProgress(db, { userId, tenantId: tenantOf(tenant).id }, slug);
    },

    /** A sample file the lessons ship, to upload as an extract. */
    async sample(name: string): Promise<{ body: string; contentType: string }> {
      if (!isSampleName(name)) throw new AppError('not_found', learnMessages.sampleNotFound);
      return { body: await readFile(path.join(LESSONS_DIR, 'samples', name), 'utf8'), contentType: SAMPLES[name] };
    },
  };
}

export type LearnService = ReturnType<typeof createLearnService>;
