#!/usr/bin/env bash
# Prints the path of a usable kubectl for the kubectl proof tests (spec/testing/kubectl.spec.ts):
# $KUBECTL if set, else kubectl on PATH, else Debian's kubernetes-client unpacked into a folder of
# our own (.cache/kubectl, via apt-get download + dpkg -x). Never installs system-wide and never
# touches /usr/bin/kubectl. Exits non-zero if none can be found or fetched.
# Usage in CI: export KUBECTL="$(scripts/ensure-kubectl.sh)"
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
usable() { [ -n "${1:-}" ] && [ -x "$1" ] && "$1" version --client >/dev/null 2>&1; }

if usable "${KUBECTL:-}"; then echo "$KUBECTL"; exit 0; fi
if found="$(command -v kubectl 2>/dev/null)" && usable "$found"; then echo "$found"; exit 0; fi

DEST="$ROOT/.cache/kubectl"
BIN="$DEST/root/usr/bin/kubectl"
if usable "$BIN"; then echo "$BIN"; exit 0; fi
mkdir -p "$DEST"
# npm test runs shards side by side: the first fetches, the others wait for it and reuse its copy.
exec 9>"$DEST/.lock"
command -v flock >/dev/null && flock -w 300 9
if usable "$BIN"; then echo "$BIN"; exit 0; fi
(
  cd "$DEST"
  rm -f kubernetes-client_*.deb
  apt-get download kubernetes-client >&2 || { apt-get update >&2 && apt-get download kubernetes-client >&2; }
  dpkg -x kubernetes-client_*.deb "$DEST/root"
)
if usable "$BIN"; then echo "$BIN"; exit 0; fi
echo "ensure-kubectl: no usable kubectl (set KUBECTL, put kubectl on PATH, or allow apt-get download)" >&2
exit 1
