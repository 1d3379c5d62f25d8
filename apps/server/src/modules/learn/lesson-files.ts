import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  isWebAppPath,
  LESSON_CHECK_FEATURES,
  LessonFrontMatterSchema,
  LessonStepCheckBlockSchema,
  type LearnFeature,
  type LessonCheck,
  type LessonFrontMatter,
} from '@dataplatform/contract';
import type { Code, Heading, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { frontmatter } from 'micromark-extension-frontmatter';
import { isMap, isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';

/** Where the lessons that ship with the server are (copied beside the compiled code by the build). */
export const LESSONS_DIR = fileURLToPath(new URL('./lessons/', import.meta.url));

/** The language of a step's fenced block that holds its check (YAML). */
const CHECK_FENCE = 'check';
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface LessonStepFile {
  id: string;
  /** The heading's text, without its number (the list numbers the steps shown). */
  title: string;
  /** What to do: the step's Markdown with its check block left out. */
  markdown: string;
  link: string;
  /** The lesson's features and the step's own: all must be there for the step to show. */
  requires: LearnFeature[];
  check: LessonCheck;
}

export interface LessonFile extends Omit<LessonFrontMatter, 'requires'> {
  slug: string;
  requires: LearnFeature[];
  intro: string;
  steps: LessonStepFile[];
}

/** A lesson file that does not fit the schema: the message names the file and the line. */
export class LessonFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    problem: string,
  ) {
    super(`${file}:${line}: ${problem}`);
    this.name = 'LessonFileError';
  }
}

/**
 * A YAML text validated by `schema`; a problem is thrown at its line in the file (`firstLine` is the
 * file's line of the text's first line).
 */
function parseYaml<T extends z.ZodType>(
  schema: T,
  text: string,
  file: string,
  firstLine: number,
  what: string,
): z.infer<T> {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const lineOf = (offset: number) => firstLine + lines.linePos(offset).line - 1;
  const [yamlError] = document.errors;
  if (yamlError)
    throw new LessonFileError(file, lineOf(yamlError.pos[0]), `${what} is not valid YAML: ${yamlError.message}`);
  const parsed = schema.safeParse(document.toJS());
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  if (!issue) throw new LessonFileError(file, firstLine, `${what} does not fit the schema`);
  // The deepest node of the path that exists: an unknown key is reported where the object starts.
  let line = firstLine;
  for (let depth = issue.path.length; depth >= 0; depth -= 1) {
    const node = document.getIn(issue.path.slice(0, depth) as (string | number)[], true);
    if (isNode(node) && node.range) {
      line = lineOf(node.range[0]);
      break;
    }
    if (depth === 0 && isMap(document.contents) && document.contents.range) line = lineOf(document.contents.range[0]);
  }
  const where = issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
  throw new LessonFileError(file, line, `${what}${where}: ${issue.message}`);
}

/** The source text between two offsets, trimmed. */
const slice = (text: string, start: number, end: number) => text.slice(start, end).trim();

/** One lesson file, parsed and checked; `file` names it in errors. */
export function parseLessonFile(file: string, text: string): LessonFile {
  const slug = path.basename(file, '.md');
  if (!SLUG.test(slug)) {
    throw new LessonFileError(file, 1, 'a lesson file is named by its slug: lowercase letters, digits and hyphens');
  }
  const tree: Root = fromMarkdown(text, {
    extensions: [frontmatter(['yaml'])],
    mdastExtensions: [frontmatterFromMarkdown(['yaml'])],
  });
  const [first] = tree.children;
  if (first?.type !== 'yaml') {
    throw new LessonFileError(file, 1, 'a lesson starts with front matter between --- lines (title, summary, …)');
  }
  const meta = parseYaml(LessonFrontMatterSchema, first.value, file, 2, 'the front matter');

  const headings = tree.children.filter((node): node is Heading => node.type === 'heading' && node.depth === 2);
  if (headings.length === 0) throw new LessonFileError(file, 1, 'a lesson has steps: one "## " heading each');
  const end = (node: { position?: { end: { offset?: number } } }) => node.position?.end.offset ?? 0;
  const start = (node: { position?: { start: { offset?: number; line: number } } }) => node.position?.start.offset ?? 0;
  const lineOfNode = (node: { position?: { start: { line: number } } }) => node.position?.start.line ?? 1;

  const steps: LessonStepFile[] = [];
  const ids = new Set<string>();
  headings.forEach((heading, index) => {
    const next = headings[index + 1];
    const sectionEnd = next ? start(next) : text.length;
    const inSection = tree.children.filter((node) => start(node) > start(heading) && start(node) < sectionEnd);
    const checks = inSection.filter((node): node is Code => node.type === 'code' && node.lang === CHECK_FENCE);
    const [checkBlock, extra] = checks;
    if (!checkBlock) {
      throw new LessonFileError(
        file,
        lineOfNode(heading),
        `a step has one \`\`\`${CHECK_FENCE} block naming its check`,
      );
    }
    if (extra) throw new LessonFileError(file, lineOfNode(extra), `a step has one \`\`\`${CHECK_FENCE} block, not two`);
    const block = parseYaml(
      LessonStepCheckBlockSchema,
      checkBlock.value,
      file,
      lineOfNode(checkBlock) + 1,
      'the check',
    );
    if (ids.has(block.id)) {
      throw new LessonFileError(file, lineOfNode(checkBlock) + 1, `the step id "${block.id}" is used twice`);
    }
    ids.add(block.id);
    // The line of one of the block's top-level keys (it parsed, so the key is there).
    const keyLine = (key: string) =>
      lineOfNode(checkBlock) +
      1 +
      Math.max(
        0,
        checkBlock.value.split('\n').findIndex((line) => line.startsWith(`${key}:`)),
      );
    if (!isWebAppPath(block.link)) {
      throw new LessonFileError(file, keyLine('link'), `the link ${block.link} is not a page of the app`);
    }
    const requires = [...new Set([...meta.requires, ...block.requires])];
    const needs = LESSON_CHECK_FEATURES[block.check.kind];
    if (!requires.includes(needs)) {
      throw new LessonFileError(
        file,
        keyLine('check'),
        `the check ${block.check.kind} needs the feature "${needs}": list it in the lesson's or the step's requires`,
      );
    }
    const title = slice(text, start(heading.children[0] ?? heading), end(heading));
    const markdown = [slice(text, end(heading), start(checkBlock)), slice(text, end(checkBlock), sectionEnd)]
      .filter((part) => part !== '')
      .join('\n\n');
    steps.push({ id: block.id, title, markdown, link: block.link, requires, check: block.check });
  });

  const [firstHeading] = headings;
  const intro = firstHeading ? slice(text, end(first), start(firstHeading)) : '';
  return { ...meta, slug, requires: meta.requires, intro, steps };
}

/**
 * Every lesson in `dir` (`*.md`), ordered by `order`, which must be unique. Throws LessonFileError
 * for the first file that does not fit: the server then refuses to start.
 */
export function loadLessonFiles(dir: string = LESSONS_DIR): LessonFile[] {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort();
  const lessons = files.map((name) =>
    parseLessonFile(path.join(dir, name), readFileSync(path.join(dir, name), 'utf8')),
  );
  const orders = new Map<number, string>();
  for (const lesson of lessons) {
    const taken = orders.get(lesson.order);
    if (taken) {
      throw new LessonFileError(path.join(dir, `${lesson.slug}.md`), 1, `order ${lesson.order} is taken by ${taken}`);
    }
    orders.set(lesson.order, lesson.slug);
  }
  return lessons.sort((a, b) => a.order - b.order);
}
