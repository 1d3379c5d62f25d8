// tsc does not copy non-TS files: the compiled server reads its SQL migrations, the lessons of
// Learn with their sample files (issue 60), and Studio's built-in reports, from beside its code.
// Run by `npm run compile` (scripts/build.mjs), which names the output folder in BUILD_OUT_DIR.
import { cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const outDir = process.env.BUILD_OUT_DIR;
if (!outDir) throw new Error('copy-migrations: BUILD_OUT_DIR is not set (build with `npm run build`)');
cpSync(fileURLToPath(new URL('../src/db/migrations', import.meta.url)), path.join(outDir, 'db/migrations'), {
  recursive: true,
});
cpSync(
  fileURLToPath(new URL('../src/modules/learn/lessons', import.meta.url)),
  path.join(outDir, 'modules/learn/lessons'),
  { recursive: true },
);
cpSync(
  fileURLToPath(new URL('../src/modules/studio/built-in-reports', import.meta.url)),
  path.join(outDir, 'modules/studio/built-in-reports'),
  { recursive: true },
);
