#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: Debian's postgresql
# (installed when missing), a temporary data folder, loopback only, a free
# port, no fsync (nothing in it outlives the tests). Its superuser has a
# random password, given only in the URL printed, and its UNIX socket is
# its user's alone: other users of the machine cannot log in.
#
#   eval "$(bash scripts/pg-test-server.sh start)"   # exports SNAKEPIT_TEST_PG and SNAKEPIT_TEST_PG_DIR
#   bash scripts/pg-test-server.sh stop "$SNAKEPIT_TEST_PG_DIR"
set -euo pipefail

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

bin_dir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

# PostgreSQL refuses to run as root: as root, its processes run as the
# `postgres` user the Debian package creates.
as_pg() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case ${1:-} in
  start)
    if [[ -z $(bin_dir) ]]; then
      echo "installing postgresql" >&2
      as_root apt-get install -y postgresql >/dev/null || { as_root apt-get update >/dev/null && as_root apt-get install -y postgresql >/dev/null; }
    fi
    BIN=$(bin_dir)
    DIR=$(mktemp -d "${TMPDIR:-/tmp}/snakepit-pg.XXXXXX")
    chmod 755 "$DIR"
    [[ $(id -u) -eq 0 ]] && chown postgres "$DIR"
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    PASSWORD=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
    (umask 077 && printf '%s\n' "$PASSWORD" >"$DIR/password")
    [[ $(id -u) -eq 0 ]] && chown postgres "$DIR/password"
    as_pg "$BIN/initdb" -D "$DIR/data" -U postgres --auth=scram-sha-256 --pwfile="$DIR/password" -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 \
      || { cat "$DIR/initdb.log" >&2; exit 1; }
    rm -f "$DIR/password"
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c unix_socket_permissions=0700 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
      start >/dev/null || { cat "$DIR/server.log" >&2; exit 1; }
    echo "export SNAKEPIT_TEST_PG=postgres://postgres:$PASSWORD@127.0.0.1:$PORT/postgres"
    echo "export SNAKEPIT_TEST_PG_DIR=$DIR"
    ;;
  stop)
    DIR=${2:?the folder printed by start}
    BIN=$(bin_dir)
    as_pg "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: $0 start | stop DIR" >&2
    exit 2
    ;;
esac
