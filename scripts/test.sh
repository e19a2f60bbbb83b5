#!/usr/bin/env bash
# The whole test suite, from a fresh clone: lints, every crate's tests, and
# the browser tests (which install Debian's chromium and playwright-core when
# they are missing). Run from anywhere: `bash scripts/test.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== test dependencies"
bash scripts/install-test-deps.sh

echo "== clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== tests"
cargo test --workspace --locked

if [ -x scripts/browser-tests.sh ]; then
  echo "== browser tests"
  bash scripts/browser-tests.sh
fi
