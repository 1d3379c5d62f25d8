// The Markdown's links are checked by remark-validate-links (.remarkrc.json); this checks the other
// half: every document a source file cites by path (`docs/decisions/019-….md`, `bench/README.md`)
// exists. Run by `npm run lint`; exits 1 naming each dead reference.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const SOURCES = /\.(ts|tsx|js|mjs|cjs|json|jsonc|ya?ml|sh|css|html)$/;
const REFERENCE = /\b(?:docs|bench|deploy|apps|packages)\/[\w./-]+\.md\b/g;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => SOURCES.test(file) && existsSync(file) && !file.endsWith('package-lock.json'));

const dead = [];
for (const file of files) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      for (const [reference] of line.matchAll(REFERENCE)) {
        if (!existsSync(reference)) dead.push(`${file}:${index + 1}: ${reference} does not exist`);
      }
    });
}
if (dead.length > 0) {
  process.stderr.write(`${dead.join('\n')}\n`);
  process.exit(1);
}
