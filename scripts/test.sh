#!/usr/bin/env bash
# The whole test suite, from a fresh clone: lints, every crate's tests, and
# the browser tests. Installs what the tests need when it is missing (see
# install-test-deps.sh, browser-tests.sh and pg-test-server.sh) and starts a
# throwaway PostgreSQL server on loopback for the store's second backend.
#
#   bash scripts/test.sh           # everything
#   bash scripts/test.sh --busy    # the same while two `nice -n 19` CPU hogs
#                                  # share the cores, as a loaded machine would
#
# Every suite runs even when an earlier one fails; the run ends with one line
# per suite and a total, and exits non-zero if anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
# A one-off build gains nothing from incremental state, which would take
# gigabytes of disk next to the test binaries.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

BUSY=no
for arg in "$@"; do
  case $arg in
    --busy) BUSY=yes ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/snakepit-test.XXXXXX")
HOGS=()
PG_DIR=
cleanup() {
  local rc=$?
  for pid in "${HOGS[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [[ -n $PG_DIR ]]; then bash scripts/pg-test-server.sh stop "$PG_DIR" || true; fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT INT TERM

if [[ $BUSY == yes ]]; then
  # Two hogs, as many as CI's cores: every test then runs on a machine whose
  # cores are taken, where a test that depends on speed shows itself.
  for _ in 1 2; do
    nice -n 19 sha256sum /dev/zero &
    HOGS+=($!)
  done
  echo "== busy: CPU hogs ${HOGS[*]} run until the end"
fi
started=$(date +%s)

echo "== test dependencies"
bash scripts/install-test-deps.sh

SUITES=$WORK/suites
: >"$SUITES"

echo "== clippy"
if cargo clippy --workspace --all-targets --locked -- -D warnings; then
  echo "clippy ok" >>"$SUITES"
else
  echo "clippy warnings or errors (see above)" >>"$SUITES"
fi

echo "== tests (with a throwaway PostgreSQL on loopback for the store's second backend)"
eval "$(bash scripts/pg-test-server.sh start)"
PG_DIR=$SNAKEPIT_TEST_PG_DIR
export SNAKEPIT_REQUIRE_PG=1
# The package of each test binary, for the summary.
cargo test --workspace --locked --no-run --message-format=json >"$WORK/artifacts.json" 2>"$WORK/build.log" \
  || cat "$WORK/build.log" >&2
set +e
cargo test --workspace --locked --no-fail-fast 2>&1 | tee "$WORK/cargo-test.log"
set -e

echo "== browser tests"
if bash scripts/browser-tests.sh; then
  echo "browser ok" >>"$SUITES"
else
  echo "browser failed (see above)" >>"$SUITES"
fi

set +e
python3 scripts/test-summary.py "$WORK/cargo-test.log" "$WORK/artifacts.json" "$SUITES"
rc=$?
set -e
echo "took $(( $(date +%s) - started )) s$([[ $BUSY == yes ]] && echo ', with two CPU hogs')"
exit "$rc"
