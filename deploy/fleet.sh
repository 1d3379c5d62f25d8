#!/usr/bin/env bash
# A trial fleet on this machine (`npm run fleet`): FLEET_INSTANCES (default 2) instances of the built
# server on PostgreSQL, each on a port of its own with a data folder of its own, Redis, an
# S3-compatible store for extract files (s3rver, unless STUDIO_STORAGE_URL is set), and nginx in front
# on FLEET_PORT (default 8080), until Ctrl-C stops them all. README "Running several instances" lists
# the settings.
#
# This script checks what the fleet needs and builds what is missing or out of date; the fleet
# itself (apps/server/scripts/fleet.ts) starts the processes, renders deploy/nginx/nginx.conf.template
# into a directory of its own, watches each instance's /readyz and stops everything on INT or TERM.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { printf '[fleet] %s\n' "$*" >&2; exit 1; }

[ -d node_modules ] || fail "run npm ci first"
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] ||
  fail "nginx is needed (Debian: apt-get install nginx-light)"
if [ -z "${DATABASE_URL:-}" ] && [ -z "${FLEET_ADMIN_DATABASE_URL:-}" ]; then
  printf '[fleet] DATABASE_URL is unset: using a database "dataplatform_fleet" on the local PostgreSQL server\n'
fi

# The web app is built too unless WEB_DIST_DIR points at one already built.
if [ -n "${WEB_DIST_DIR:-}" ]; then
  node scripts/build.mjs server
else
  node scripts/build.mjs
fi

# exec: the fleet gets the signals itself and stops its children in order.
exec node --import tsx apps/server/scripts/fleet.ts
