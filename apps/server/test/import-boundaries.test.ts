import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The rule ids ESLint reports for `source` as if it were the file at `file` (relative to the repo). */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(source, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

/**
 * The import boundaries of eslint.config.js (decision 019), proven on deliberate violations: each
 * import below is refused where it is written and allowed where the architecture allows it.
 */
describe('import boundaries', () => {
  it('keeps server plugins and lib out of modules, and modules out of each other but for services', async () => {
    expect(
      await boundaryErrors(
        'apps/server/src/plugins/health.ts',
        "export { findUserById } from '../modules/users/users.repository.js';\n",
      ),
    ).toEqual([expect.stringContaining('Plugins, lib and db never import a module')]);
    expect(
      await boundaryErrors(
        'apps/server/src/lib/retry.ts',
        "export { errorHandlerPlugin } from '../plugins/error-handler.js';\n",
      ),
    ).toEqual([expect.stringContaining('lib never imports a plugin')]);
    expect(
      await boundaryErrors(
        'apps/server/src/modules/contact/contact.service.ts',
        "export { enqueueMail } from '../mail/outbox.repository.js';\n",
      ),
    ).toEqual([expect.stringContaining('only through its service')]);
    expect(
      await boundaryErrors(
        'apps/server/src/modules/contact/contact.service.ts',
        "export { enqueueMail } from '../mail/mail.service.js';\nexport { insertSubmission } from './contact.repository.js';\n",
      ),
    ).toEqual([]);
  }, 120_000);

  it('keeps web features apart, and the shared kit free of features', async () => {
    expect(
      await boundaryErrors(
        'apps/web/src/features/admin/admin-area.tsx',
        "export { plansQueryOptions } from '../settings/api/plans.js';\n",
      ),
    ).toEqual([expect.stringContaining('A web feature never imports another feature')]);
    expect(
      await boundaryErrors(
        'apps/web/src/components/data-table.tsx',
        "export { AdminArea } from '../features/admin/admin-area.js';\n",
      ),
    ).toEqual([expect.stringContaining('The shared kit never imports a feature')]);
    expect(
      await boundaryErrors(
        'apps/web/src/features/admin/admin-area.tsx',
        "export { DataTable } from '../../components/data-table.js';\n",
      ),
    ).toEqual([]);
  }, 120_000);
});
