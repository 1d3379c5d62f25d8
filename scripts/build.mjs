// The one way to build the product: `npm run build` (everything) or `node scripts/build.mjs server`
// (the contract and the server only). Each workspace's output is addressed by a hash of its sources
// (and of what it is built from), so:
// - what is built already is never built again, whatever the files' times say;
// - a build goes into a fresh folder (`.dist-<hash>`), and `dist` is a symbolic link moved onto it
//   in one step (rename), so a server that is running never has files pulled from under it, and two
//   starts from one checkout never race (decision 041).
// Each workspace's `compile` script writes to $BUILD_OUT_DIR.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Builds kept beside the current one: a server started from an earlier build keeps its files. */
const KEEP_BUILDS = 3;
const SOURCE_HASH_FILE = '.source-hash';

const TARGETS = {
  contract: {
    workspace: 'packages/contract',
    linked: false,
    sources: ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'],
  },
  web: {
    workspace: 'apps/web',
    sources: ['src', 'public', 'build', 'package.json', 'tsconfig.json', 'vite.config.ts', 'react-router.config.ts'],
    after: ['contract'],
  },
  server: {
    workspace: 'apps/server',
    sources: [
      'src',
      'scripts/copy-migrations.mjs',
      'scripts/pglite-template.mjs',
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ],
    after: ['contract'],
  },
};
const SHARED_SOURCES = ['package-lock.json', 'tsconfig.base.json'];
const GROUPS = { all: ['contract', 'web', 'server'], server: ['contract', 'server'], web: ['contract', 'web'] };

/** Hash of every file under `entry`, by path and content; test files and build output aside. */
function hashTree(hash, base, entry) {
  const full = path.join(base, entry);
  if (!existsSync(full)) return;
  const stat = statSync(full);
  if (!stat.isDirectory()) {
    hash.update(`${entry}\0`).update(readFileSync(full)).update('\0');
    return;
  }
  for (const child of readdirSync(full).sort()) {
    if (child === 'node_modules' || child === 'dist' || child.startsWith('.dist-')) continue;
    if (/\.test\.tsx?$/.test(child)) continue;
    hashTree(hash, base, path.join(entry, child));
  }
}

function currentBuild(distLink) {
  try {
    return lstatSync(distLink).isSymbolicLink() ? readlinkSync(distLink) : null;
  } catch {
    return null;
  }
}

/** Points `dist` at `folder` in one rename; a `dist` folder of an older layout is removed first. */
function pointDistAt(workspaceDir, folder) {
  const distLink = path.join(workspaceDir, 'dist');
  if (currentBuild(distLink) === folder) return;
  if (existsSync(distLink) && !lstatSync(distLink).isSymbolicLink()) rmSync(distLink, { recursive: true, force: true });
  const staged = path.join(workspaceDir, `.dist-link-${process.pid}`);
  rmSync(staged, { force: true });
  symlinkSync(folder, staged);
  renameSync(staged, distLink);
}

/** Removes all but the newest few finished builds (by last use) and any leftover of a failed one. */
function prune(workspaceDir, keep) {
  const builds = [];
  for (const name of readdirSync(workspaceDir)) {
    if (!name.startsWith('.dist-')) continue;
    const full = path.join(workspaceDir, name);
    const pending = name.includes('.tmp-') || name.startsWith('.dist-link-');
    if (pending) {
      const pid = Number(/(?:\.tmp-|^\.dist-link-)(\d+)/.exec(name)?.[1]);
      if (!isAlive(pid)) rmSync(full, { recursive: true, force: true });
      continue;
    }
    builds.push({ name, full, used: lstatSync(full).mtimeMs });
  }
  builds.sort((a, b) => b.used - a.used);
  for (const build of builds.slice(keep)) rmSync(build.full, { recursive: true, force: true });
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function build(name, hashes) {
  const target = TARGETS[name];
  const workspaceDir = path.join(root, target.workspace);
  const hash = createHash('sha256');
  for (const entry of SHARED_SOURCES) hashTree(hash, root, entry);
  for (const entry of target.sources) hashTree(hash, workspaceDir, entry);
  for (const dependency of target.after ?? []) hash.update(hashes[dependency]);
  const digest = hash.digest('hex').slice(0, 16);
  hashes[name] = digest;

  if (target.linked === false) replaceLibrary(target, workspaceDir, digest);
  else linkBuild(target, workspaceDir, digest);
}

function compile(target, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  process.stdout.write(`building ${target.workspace} (${path.basename(outDir)})\n`);
  const result = spawnSync('npm', ['run', 'compile', '-w', target.workspace], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BUILD_OUT_DIR: outDir },
  });
  if (result.status !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    process.exit(result.status ?? 1);
  }
}

/** What runs or is served: a kept folder per build, and `dist` a link to the current one. */
function linkBuild(target, workspaceDir, digest) {
  const folder = `.dist-${digest}`;
  const finished = path.join(workspaceDir, folder);
  if (!existsSync(finished)) {
    const staging = path.join(workspaceDir, `${folder}.tmp-${process.pid}`);
    compile(target, staging);
    try {
      renameSync(staging, finished);
    } catch (error) {
      // Another build of the same sources finished first: its output is the same, keep it.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const now = new Date();
  utimesSync(finished, now, now);
  pointDistAt(workspaceDir, folder);
  prune(workspaceDir, KEEP_BUILDS);
}

/**
 * The contract, a library the server reads once at start: `dist` stays a folder (tools such as knip
 * map a real `dist` back to its sources, not a link), replaced whole by renames, and stamped with
 * the hash of the sources it was built from.
 */
function replaceLibrary(target, workspaceDir, digest) {
  const dist = path.join(workspaceDir, 'dist');
  const stamp = path.join(dist, SOURCE_HASH_FILE);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  const staging = path.join(workspaceDir, `.dist-${digest}.tmp-${process.pid}`);
  compile(target, staging);
  writeFileSync(path.join(staging, SOURCE_HASH_FILE), digest);
  const retired = path.join(workspaceDir, `.dist-retired.tmp-${process.pid}`);
  try {
    if (lstatSync(dist).isSymbolicLink()) rmSync(dist);
    else renameSync(dist, retired);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    renameSync(staging, dist);
  } catch (error) {
    // Another build put its output in place meanwhile: keep it.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
  }
  rmSync(staging, { recursive: true, force: true });
  rmSync(retired, { recursive: true, force: true });
  prune(workspaceDir, 0);
}

const group = process.argv[2] ?? 'all';
if (!GROUPS[group]) {
  process.stderr.write(`usage: node scripts/build.mjs [${Object.keys(GROUPS).join('|')}]\n`);
  process.exit(2);
}
const hashes = {};
for (const name of GROUPS[group]) build(name, hashes);
