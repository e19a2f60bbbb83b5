#!/usr/bin/env bash
# Browser tests of the web UI: headless Chromium (Debian's package) driven by
# playwright-core, against a real server on a free port with a temporary
# database and a 100 ms tick. Installs what it needs when it is missing.
#
#   bash scripts/browser-tests.sh            # every tests/browser/*.test.mjs
#   bash scripts/browser-tests.sh room       # only files whose name has "room"
set -euo pipefail


cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
ADMIN_TOKEN=${SNAKEPIT_ADMIN_TOKEN:-browser-test-token-$$}
TICK_MS=100
WORK=$(mktemp -d "${TMPDIR:-/tmp}/snakepit-browser.XXXXXX")
DB=$WORK/snakepit.sqlite
LOG=$WORK/server.log
SERVER_PID=

cleanup() {
  local rc=$?
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -INT "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ $rc -ne 0 && -s $LOG ]]; then
    echo "--- server log (last 40 lines) ---" >&2
    tail -n 40 "$LOG" >&2 || true
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT INT TERM

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

# 1. Chromium from Debian (playwright's own browser download cannot work here).
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $CHROMIUM ]]; then
  echo "installing chromium" >&2
  as_root apt-get install -y chromium >/dev/null || { as_root apt-get update >/dev/null && as_root apt-get install -y chromium >/dev/null; }
fi
export CHROMIUM

# 2. playwright-core from npm.
if [[ ! -d tests/browser/node_modules/playwright-core ]]; then
  echo "installing the test dependencies" >&2
  if [[ -f tests/browser/package-lock.json ]]; then
    (cd tests/browser && npm ci --no-audit --no-fund)
  else
    (cd tests/browser && npm install --no-audit --no-fund)
  fi
fi

# 3. Build and start the server.
cargo build -q -p snakepit --bin snakepit
SERVER=("$TARGET_DIR/debug/snakepit" serve --bind 127.0.0.1 --port 0 --db "$DB" --tick-ms "$TICK_MS" --ladder duel)
SNAKEPIT_ADMIN_TOKEN=$ADMIN_TOKEN SNAKEPIT_TICK_MS=$TICK_MS RUST_LOG=${RUST_LOG:-warn} \
  "${SERVER[@]}" >"$LOG" 2>&1 </dev/null &
SERVER_PID=$!

URL=
for _ in $(seq 600); do
  URL=$(sed -n 's/^snakepit listening on \(http:\/\/[^ ]*\).*/\1/p' "$LOG" | head -n 1)
  [[ -n $URL ]] && break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "the server exited before it listened" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z $URL ]]; then
  echo "the server did not print its address within 60 s" >&2
  exit 1
fi
echo "server: $URL (pid $SERVER_PID)" >&2

# 4. The tests, one file at a time (each starts its own browser).
cd tests/browser
FILTER=${1:-}
FILES=()
for f in *.test.mjs; do
  [[ -z $FILTER || $f == *"$FILTER"* ]] && FILES+=("$f")
done
if [[ ${#FILES[@]} -eq 0 ]]; then
  echo "no test file matches '$FILTER'" >&2
  exit 2
fi
SNAKEPIT_BIN="$TARGET_DIR/debug/snakepit" SNAKEPIT_URL=$URL SNAKEPIT_ADMIN_TOKEN=$ADMIN_TOKEN node --test --test-concurrency=1 "${FILES[@]}"
