// Builds what the fleet runs (the contract and the server; with --web, the web app too) when its
// output is missing or older than a source file, and nothing otherwise: `npm run fleet` and
// `npm run test:fleet` run the built server, and CI has usually just built it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const contractSources = ['packages/contract/src', 'packages/contract/package.json'];
const targets = [
  { workspace: 'packages/contract', output: 'packages/contract/dist/index.js', sources: contractSources },
  {
    workspace: 'apps/server',
    output: 'apps/server/dist/server.js',
    sources: ['apps/server/src', 'apps/server/package.json', ...contractSources],
  },
  {
    workspace: 'apps/web',
    output: 'apps/web/dist/index.html',
    sources: ['apps/web/src', 'apps/web/public', 'apps/web/scripts', 'apps/web/index.html', ...contractSources],
    only: '--web',
  },
];

/** The newest modification time under `entry` (a file or a folder), test files aside. */
function newest(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const child of readdirSync(full)) {
    if (/\.test\.tsx?$/.test(child)) continue;
    latest = Math.max(latest, newest(path.join(entry, child)));
  }
  return latest;
}

for (const target of targets) {
  if (target.only && !process.argv.includes(target.only)) continue;
  const output = path.join(root, target.output);
  const built = existsSync(output) ? statSync(output).mtimeMs : 0;
  if (built > Math.max(...target.sources.map(newest))) continue;
  process.stdout.write(`building ${target.workspace} (${built === 0 ? 'not built' : 'sources changed'})\n`);
  const result = spawnSync('npm', ['run', 'build', '-w', target.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
