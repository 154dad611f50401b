#!/usr/bin/env bash
# A throwaway PostgreSQL for the test suite: `pg.sh start` prints nothing but sets it up on
# 127.0.0.1:$QC_PG_PORT (default 55432, trust auth, data in /tmp), `pg.sh stop` removes it,
# `pg.sh running` succeeds when it is up.
source "$(dirname "$0")/lib.sh"
PORT=${QC_PG_PORT:-55432}
DIR=${QC_PG_DIR:-/tmp/qc-test-pg}
# The server's own programs: postgresql-client alone also makes a .../bin folder, without pg_ctl.
bin() { ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V | tail -n 1 | xargs -r dirname; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "${1:-}" in
start)
  if [ -z "$(bin)" ]; then
    log "installing postgresql (apt)"
    [ -n "${QC_APT_UPDATED:-}" ] || apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  fi
  B=$(bin)
  if as_pg "$B/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then exit 0; fi
  rm -rf "$DIR" && mkdir -p "$DIR"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$DIR"
  as_pg "$B/initdb" -D "$DIR" -A trust -U postgres --no-sync >/dev/null
  # fsync stays on: the suite must see the same durability a real server gives.
  as_pg "$B/pg_ctl" -D "$DIR" -w -l "$DIR/server.log" \
    -o "-h 127.0.0.1 -p $PORT -k $DIR -c max_connections=200 -c shared_buffers=128MB" start >/dev/null
  ;;
running)
  B=$(bin)
  [ -n "$B" ] && as_pg "$B/pg_ctl" -D "$DIR" status >/dev/null 2>&1
  ;;
stop)
  B=$(bin)
  [ -n "$B" ] && as_pg "$B/pg_ctl" -D "$DIR" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
  ;;
*) echo "usage: pg.sh start|stop|running" >&2; exit 2 ;;
esac
