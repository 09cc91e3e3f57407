#!/usr/bin/env bash
# Prints the directory holding usable `prometheus` and `promtool` binaries, for the real-Prometheus
# check of rxkube's dashboard and alerts (spec/prometheus/realPrometheus.e2e.spec.ts): $PROMETHEUS_BIN_DIR
# if set, else the directory of `prometheus` on PATH, else Debian's prometheus package unpacked into
# a folder of our own (.cache/prometheus, via apt-get download + dpkg -x). Never installs system-wide.
# Exits non-zero, saying why, if none can be found or fetched.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
usable() { [ -n "${1:-}" ] && [ -x "$1/prometheus" ] && [ -x "$1/promtool" ] && "$1/prometheus" --version >/dev/null 2>&1; }

if usable "${PROMETHEUS_BIN_DIR:-}"; then echo "$PROMETHEUS_BIN_DIR"; exit 0; fi
if found="$(command -v prometheus 2>/dev/null)" && usable "$(dirname "$found")"; then dirname "$found"; exit 0; fi

DEST="$ROOT/.cache/prometheus"
BIN="$DEST/root/usr/bin"
if usable "$BIN"; then echo "$BIN"; exit 0; fi
mkdir -p "$DEST"
# npm test runs shards side by side: the first fetches, the others wait for it and reuse its copy.
exec 9>"$DEST/.lock"
command -v flock >/dev/null && flock -w 300 9
if usable "$BIN"; then echo "$BIN"; exit 0; fi
(
  cd "$DEST"
  rm -f prometheus_*.deb
  apt-get download prometheus >&2 || { apt-get update >&2 && apt-get download prometheus >&2; }
  dpkg -x prometheus_*.deb "$DEST/root"
)
if usable "$BIN"; then echo "$BIN"; exit 0; fi
echo "ensure-prometheus: no usable prometheus (set PROMETHEUS_BIN_DIR, put prometheus on PATH, or allow apt-get download of Debian's prometheus)" >&2
exit 1
