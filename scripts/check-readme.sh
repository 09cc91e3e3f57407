#!/usr/bin/env bash
# README's first command on a fresh clone: `npm install && npm start` must end by itself with the
# demo's summary, the store converged to the fake API server. (README's second command, `npm test`,
# is what CI's legs run.) Clones the committed HEAD into .cache/readme-clone.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CLONE="$ROOT/.cache/readme-clone"
rm -rf "$CLONE"
git clone -q "$ROOT" "$CLONE"
cd "$CLONE"
LOG="$ROOT/.cache/readme-start.log"
t0=$SECONDS
# README: "npm install && npm start" (bounded here: the demo runs 20 s and ends by itself)
timeout 600 bash -c 'npm install && npm start' >"$LOG" 2>&1 || { tail -n 40 "$LOG"; echo "README check: npm install && npm start failed"; exit 1; }
grep -q '^summary$' "$LOG" || { tail -n 40 "$LOG"; echo "README check: no summary"; exit 1; }
grep -q 'converged    yes' "$LOG" || { tail -n 40 "$LOG"; echo "README check: the store did not converge"; exit 1; }
echo "README check: npm install && npm start on a fresh clone ended with its summary in $((SECONDS - t0)) s"
rm -rf "$CLONE"
