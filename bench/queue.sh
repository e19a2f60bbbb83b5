#!/usr/bin/env bash
# Games per minute through the shared queue: a throwaway PostgreSQL on
# loopback, GAMES duel games queued, then 1, 2 and 4 `snakepit worker`
# processes (one game at a time each) draining it. Prints one line per
# worker count. Bounded: every run stops when the queue is empty.
#
#   bash bench/queue.sh                      # built-in bots (greedy vs random)
#   GAMES=500 BOTS="starters/duel/c" bash bench/queue.sh   # the C starter against itself
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-2000}
WORKERS=${WORKERS:-"1 2 4"}
TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
cargo build -q --release -p snakepit --bin snakepit
BIN=$TARGET_DIR/release/snakepit

BOT_ARGS=(--bot builtin:greedy --bot builtin:random)
if [[ -n ${BOTS:-} ]]; then
  WORK_C=$(mktemp -d)
  gcc -O2 -o "$WORK_C/bot" "$BOTS"/*.c
  BOT_ARGS=(--bot "$WORK_C/bot" --bot "$WORK_C/bot")
fi

eval "$(bash scripts/pg-test-server.sh start)"
trap 'bash scripts/pg-test-server.sh stop "$SNAKEPIT_TEST_PG_DIR"; rm -rf "${WORK_C:-/nonexistent}"' EXIT
BASE=${SNAKEPIT_TEST_PG%/*}

for W in $WORKERS; do
  DB=bench_queue_$W
  PGOPTIONS=--client-min-messages=warning psql -q "$SNAKEPIT_TEST_PG" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
  "$BIN" queue --db "$BASE/$DB" add --game duel "${BOT_ARGS[@]}" --games "$GAMES" >/dev/null
  START=$(date +%s.%N)
  PIDS=()
  for i in $(seq "$W"); do
    "$BIN" worker --db "$BASE/$DB" --name "w$i" --jobs 1 --until-empty >/dev/null &
    PIDS+=($!)
  done
  wait "${PIDS[@]}"
  END=$(date +%s.%N)
  STATUS=$("$BIN" queue --db "$BASE/$DB" status)
  echo "$W worker(s): $GAMES games in $(echo "$END - $START" | bc) s = $(echo "$GAMES * 60 / ($END - $START)" | bc) games/min ($STATUS)"
done
