#!/usr/bin/env bash
# Type-checks examples/angular against real Angular packages. @angular/core is installed once,
# pinned, into .cache/angular (not into package.json: the library does not depend on Angular). Peer
# dependencies are not installed there, so Angular's types resolve rxjs from the project's own
# node_modules: one rxjs, the one rxkube's types use.
set -euo pipefail
cd "$(dirname "$0")/.."
ANGULAR_VERSION=22.2.6
CACHE=.cache/angular
if [ "$(node -p "try { require('./$CACHE/node_modules/@angular/core/package.json').version } catch { '' }" 2>/dev/null)" != "$ANGULAR_VERSION" ]; then
  mkdir -p "$CACHE"
  [ -f "$CACHE/package.json" ] || echo '{ "name": "rxkube-angular-check", "private": true }' > "$CACHE/package.json"
  (cd "$CACHE" && npm install --no-save --legacy-peer-deps --no-audit --no-fund --prefix . "@angular/core@$ANGULAR_VERSION")
fi
# The example resolves @angular/* through its own node_modules, a link to the cache.
ln -sfn ../../.cache/angular/node_modules examples/angular/node_modules
npx tsc -p examples/angular/tsconfig.json --noEmit
echo "angular example ok: type-checked against @angular/core $ANGULAR_VERSION"
