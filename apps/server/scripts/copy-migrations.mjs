// tsc does not copy non-TS files: the compiled server reads its SQL migrations from dist/.
import { cpSync } from 'node:fs';

cpSync(new URL('../src/db/migrations', import.meta.url), new URL('../dist/db/migrations', import.meta.url), {
  recursive: true,
});
