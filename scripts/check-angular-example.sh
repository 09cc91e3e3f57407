#!/usr/bin/env bash
# Builds examples/angular, a real Angular CLI app, against the repository's BUILT package (dist/, as a
# packed file: dependency), reports the production bundle's size and rxkube's share, and runs the
# app's end-to-end test in headless Chromium (Debian's package) with the fake API server behind it.
#   bash scripts/check-angular-example.sh [--no-e2e | --types-only]
# Needs Node >= 22.22 or 24 (the Angular CLI's requirement; CI runs it in the Node 24 leg) and, for
# the browser test, Chromium (apt-get install chromium, or CHROMIUM=/path/to/chromium).
#
# It also installs a pinned @angular/core, without its peers, into .cache/angular: the docs' snippet
# check (scripts/check-doc-snippets.mjs) type-checks the Angular blocks of docs/angular.md with it,
# on any Node, resolving rxjs from the project's own node_modules (one rxjs, the one rxkube's types
# use). With --types-only, or on a Node older than the CLI needs, that is all it does (it says so).
set -euo pipefail
cd "$(dirname "$0")/.."
export NG_CLI_ANALYTICS=false npm_config_fund=false npm_config_audit=false
ANGULAR_VERSION=22.2.6 # = examples/angular's @angular/core
TYPES=.cache/angular
if [ "$(node -p "try { require('./$TYPES/node_modules/@angular/core/package.json').version } catch { '' }" 2>/dev/null)" != "$ANGULAR_VERSION" ]; then
  mkdir -p "$TYPES"
  [ -f "$TYPES/package.json" ] || echo '{ "name": "rxkube-angular-types", "private": true }' > "$TYPES/package.json"
  (cd "$TYPES" && npm install --no-save --legacy-peer-deps --prefix . "@angular/core@$ANGULAR_VERSION")
fi
if [ "${1:-}" = --types-only ]; then
  echo "angular example: @angular/core $ANGULAR_VERSION types are in $TYPES (--types-only: the app is not built)"
  exit 0
fi
if ! node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  process.exit(major >= 24 || (major === 22 && minor >= 22) ? 0 : 1);'; then
  echo "angular example: NOT built: the Angular CLI needs Node >= 22.22 or 24, this is $(node --version) (CI builds it in the Node 24 leg); @angular/core $ANGULAR_VERSION types are in $TYPES"
  exit 0
fi
[ -f dist/esm/index.js ] || npm run --silent build
cd examples/angular
# An older version of this script made node_modules here a link into .cache/angular.
[ -L node_modules ] && rm node_modules
t0=$SECONDS
# node_modules/rxkube is a packed copy of ../.. (install-links): removed, so that npm packs the current
# dist/ again. `npm install`, not `npm ci`: npm 11 writes lock files without other platforms' optional
# packages and its own `npm ci` then rejects them (as at the root); `npm install` honours the lock.
rm -rf node_modules/rxkube
npm install
echo "angular example: install $((SECONDS - t0)) s"
t0=$SECONDS
npx ng build --stats-json
echo "angular example: build $((SECONDS - t0)) s"
node scripts/bundle-size.mjs
node scripts/check-docs.mjs
if [ "${1:-}" != --no-e2e ]; then
  t0=$SECONDS
  npm run --silent e2e
  echo "angular example: browser test $((SECONDS - t0)) s"
fi
