import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const webSrc = path.resolve(import.meta.dirname, '..');
const contractSrc = path.resolve(webSrc, '../../../packages/contract/src');

/** The modules under `dir` (tests aside). */
function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The modules under `dir` that build zod schemas (a value import of zod). */
function schemaBuilders(dir: string): string[] {
  return modules(dir).filter((file) => /^import \{[^}]*\} from 'zod';$/m.test(readFileSync(file, 'utf8')));
}

function firstImport(file: string): string | undefined {
  return readFileSync(file, 'utf8')
    .split('\n')
    .find((line) => line.startsWith('import '));
}

// zod decides when a schema is built whether it may compile its parser; in a browser the contract's
// zod-config says it may not (the CSP refuses eval), so it must run before any schema is built.
describe("zod's settings (the contract's zod-config)", () => {
  it('are imported first by every module of the contract that builds a schema', () => {
    const builders = schemaBuilders(contractSrc);
    expect(builders.length).toBeGreaterThan(10);
    for (const file of builders) expect(firstImport(file), path.basename(file)).toBe("import './zod-config.js';");
  });

  it('are imported first by every module of the app that builds a schema', () => {
    const builders = schemaBuilders(webSrc);
    expect(builders.length).toBeGreaterThan(3);
    for (const file of builders) {
      expect(firstImport(file), path.relative(webSrc, file)).toBe("import '@dataplatform/contract/zod-config';");
    }
  });
});
