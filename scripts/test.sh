#!/usr/bin/env bash
# The whole test suite, from a fresh clone: lints, every crate's tests, and
# the browser tests (which install Debian's chromium and playwright-core when
# they are missing) and a local PostgreSQL server for the store's tests
# (Debian's postgresql, installed when missing). Run from anywhere: `bash scripts/test.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
# A one-off build gains nothing from incremental state, which would take
# gigabytes of disk next to the test binaries.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

echo "== test dependencies"
bash scripts/install-test-deps.sh

echo "== clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== tests (with a throwaway PostgreSQL on loopback for the store's second backend)"
eval "$(bash scripts/pg-test-server.sh start)"
trap 'bash scripts/pg-test-server.sh stop "$SNAKEPIT_TEST_PG_DIR"' EXIT
export SNAKEPIT_REQUIRE_PG=1
cargo test --workspace --locked

if [ -x scripts/browser-tests.sh ]; then
  echo "== browser tests"
  bash scripts/browser-tests.sh
fi
