#!/usr/bin/env bash
# Installs what the client-template tests (crates/server/tests/
# client_templates.rs) need, and only what is missing, so it is cheap to run
# before every `cargo test`:
#   - Python's websocket-client (pip; Debian's python3-websocket as a fallback),
#   - the `ws` package in clients/javascript/node_modules (npm ci),
#   - Mono's C# compiler and runtime (apt-get install mono-mcs),
#   - javac and node themselves, if the machine lacks them (apt-get).
# Run from anywhere: `bash scripts/install-test-deps.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

apt_updated=no
apt_install() {
  # Another apt may hold the lock (e.g. a browser-test install running
  # alongside); wait for it instead of failing.
  local apt=($SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q)
  if [ "$apt_updated" = no ] && ! "${apt[@]}" install -y --no-install-recommends "$@" >/dev/null 2>&1; then
    "${apt[@]}" update >/dev/null
    apt_updated=yes
  fi
  "${apt[@]}" install -y --no-install-recommends "$@" >/dev/null
}

if ! command -v python3 >/dev/null; then
  echo "install-test-deps: python3"
  apt_install python3 python3-pip
fi
if ! python3 -c 'import websocket' 2>/dev/null; then
  echo "install-test-deps: websocket-client (pip)"
  python3 -m pip install --quiet --disable-pip-version-check websocket-client 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages websocket-client 2>/dev/null \
    || apt_install python3-websocket
  python3 -c 'import websocket'
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "install-test-deps: nodejs npm"
  apt_install nodejs npm
fi
if [ ! -f clients/javascript/node_modules/ws/package.json ]; then
  echo "install-test-deps: ws (npm ci in clients/javascript)"
  (cd clients/javascript && npm ci --no-audit --no-fund --silent)
fi

if ! command -v javac >/dev/null || ! command -v java >/dev/null; then
  echo "install-test-deps: default-jdk-headless"
  apt_install default-jdk-headless
fi

if ! command -v mcs >/dev/null || ! command -v mono >/dev/null; then
  echo "install-test-deps: mono-mcs"
  apt_install mono-mcs
fi
