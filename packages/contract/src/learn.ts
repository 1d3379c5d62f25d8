import './zod-config.js';
import { z } from 'zod';
import { REPORT_BLOCK_KINDS, REPORT_PAGE_SIZE_MAX, REPORT_SOURCES } from './studio-reports-constants.js';

/*
 * Learn (issue 60): guided lessons, each a Markdown file with front matter kept beside the server's
 * learn module, whose steps name a check the server evaluates on the learner's current tenant.
 * The schemas of a lesson file are here so a lesson that names an unknown check, or a check with a
 * misspelt key, fails the tests and keeps the server from starting.
 */

/**
 * The product features a lesson or a step may need. The server keeps which of them are there now in
 * one place (modules/learn/features.ts): a lesson or step naming one that is not is hidden.
 */
export const LEARN_FEATURES = ['extracts', 'reports', 'tenant_databases', 'agent', 'sharing', 'schedules'] as const;
export type LearnFeature = (typeof LEARN_FEATURES)[number];

export const LEARN_SLUG_MAX = 64;
const LEARN_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const STEP_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What a step's check looks for in the learner's tenant; every object is strict. */
export const LessonCheckSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('extract_exists'),
    /** Each counted extract has at least this many rows. */
    min_rows: z.int().min(0).default(1),
    /** How many such extracts the tenant has at least. */
    count: z.int().min(1).max(100).default(1),
  }),
  z.strictObject({
    kind: z.literal('report_exists'),
    /** The report's current version has a block of this kind. */
    block: z.enum(REPORT_BLOCK_KINDS).optional(),
    /** The report reads this source. */
    source: z.enum(REPORT_SOURCES).optional(),
    /** The report has at least one parameter. */
    with_param: z.boolean().default(false),
    /** The report has a table block whose page size is at most this. */
    page_size_at_most: z.int().min(1).max(REPORT_PAGE_SIZE_MAX).optional(),
  }),
  z.strictObject({
    kind: z.literal('report_versions'),
    /** A report of the tenant has been saved at least this many times. */
    at_least: z.int().min(2).max(1000),
  }),
  z.strictObject({ kind: z.literal('tenant_source_connected') }),
  z.strictObject({ kind: z.literal('agent_block_added') }),
  z.strictObject({ kind: z.literal('share_link_exists') }),
  z.strictObject({ kind: z.literal('schedule_exists') }),
]);
export type LessonCheck = z.infer<typeof LessonCheckSchema>;
export type LessonCheckKind = LessonCheck['kind'];

/** The feature each kind of check reads: a step whose check needs a missing feature is hidden. */
export const LESSON_CHECK_FEATURES = {
  extract_exists: 'extracts',
  report_exists: 'reports',
  report_versions: 'reports',
  tenant_source_connected: 'tenant_databases',
  agent_block_added: 'agent',
  share_link_exists: 'sharing',
  schedule_exists: 'schedules',
} as const satisfies Record<LessonCheckKind, LearnFeature>;

/** A lesson file's front matter. */
export const LessonFrontMatterSchema = z.strictObject({
  title: z.string().trim().min(1).max(120),
  summary: z.string().trim().min(1).max(300),
  /** About how long the lesson takes. */
  minutes: z.int().min(1).max(120),
  /** Where it sits in the list: lower first; unique. */
  order: z.int().min(1).max(1000),
  /** The features the whole lesson needs; one missing hides the lesson. */
  requires: z.array(z.enum(LEARN_FEATURES)).default([]),
});
export type LessonFrontMatter = z.infer<typeof LessonFrontMatterSchema>;

/** The ```check block of a step (YAML): the check, and where in the app the step is done. */
export const LessonStepCheckBlockSchema = z.strictObject({
  /** The step's id, unique in its lesson: progress is kept by it. */
  id: z.string().regex(STEP_ID, 'lowercase letters, digits and single hyphens').max(64),
  /** The app's screen where the step is done (a path of the web app). */
  link: z.string().regex(/^\/[A-Za-z0-9/_-]*$/, 'a path of the web app, like /studio'),
  /** Features this step alone needs beyond the lesson's: one missing hides the step. */
  requires: z.array(z.enum(LEARN_FEATURES)).default([]),
  check: LessonCheckSchema,
});

export const LearnSlugParamsSchema = z.object({
  slug: z.string().regex(LEARN_SLUG).max(LEARN_SLUG_MAX).meta({ description: "A lesson's slug, its file name" }),
});

const StepProgressFields = {
  /** Done when the last check found it done (kept per person and tenant). */
  done: z.boolean(),
};

export const LessonSummarySchema = z.object({
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  minutes: z.int(),
  order: z.int(),
  /** Steps shown (those whose features are all there). */
  steps: z.int(),
  /** Of them, done at the caller's last check in this tenant. */
  steps_done: z.int(),
});
export type LessonSummary = z.infer<typeof LessonSummarySchema>;

export const LessonsSchema = z.object({ data: z.array(LessonSummarySchema), count: z.int() });
export type Lessons = z.infer<typeof LessonsSchema>;

export const LessonStepSchema = z.object({
  id: z.string(),
  /** "1. Upload the sample file": the step's heading, numbered as shown. */
  title: z.string(),
  /** What to do, as Markdown, and the same as HTML (CommonMark, safe defaults). */
  markdown: z.string(),
  html: z.string(),
  link: z.string(),
  check: LessonCheckSchema,
  ...StepProgressFields,
});

export const LessonSchema = LessonSummarySchema.omit({ steps: true }).extend({
  /** The introduction before the first step, as Markdown and as HTML. */
  intro_markdown: z.string(),
  intro_html: z.string(),
  steps: z.array(LessonStepSchema),
});
export type Lesson = z.infer<typeof LessonSchema>;

export const LessonCheckResultSchema = z.object({
  steps: z.array(
    z.object({
      id: z.string(),
      done: z.boolean(),
      /** What was found, or what is missing and where ("no extract with at least 1 row in Acme Health"). */
      detail: z.string(),
    }),
  ),
});
export type LessonCheckResult = z.infer<typeof LessonCheckResultSchema>;

export const learnMessages = {
  lessonNotFound: 'No such lesson: open Learn to see the lessons there are',
  noTenant: 'Choose a tenant first (the X-Tenant-ID header): lessons are checked on a tenant’s data',
  sampleNotFound: 'No such sample file',
} as const;
