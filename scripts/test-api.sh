#!/usr/bin/env bash
# The api tests on SQLite and on PostgreSQL, side by side: each is one jest process (a file's
# daemons start on free ports, its database is its own), so together they use both cores instead of
# one after the other. Each run's output is kept apart and printed whole when it ends.
# Usage: test-api.sh <results dir> [postgres url]   (no url: PostgreSQL did not start, SQLite only)
source "$(dirname "$0")/lib.sh"
RESULTS=$1 PG_URL=${2:-}
pids=() names=() logs=()
run() { # run <name> <log> <command...>
  local name=$1 out=$2; shift 2
  "$@" >"$out" 2>&1 &
  pids+=($!) names+=("$name") logs+=("$out")
}
run "SQLite" "$RESULTS/jest-sqlite.log" \
  jest --ci --selectProjects api --json --outputFile="$RESULTS/jest-sqlite.json"
if [ -n "$PG_URL" ]; then
  run "PostgreSQL" "$RESULTS/jest-postgres.log" env QC_TEST_DATABASE_URL="$PG_URL" \
    jest --ci --selectProjects api --json --outputFile="$RESULTS/jest-postgres.json"
else
  echo "-- api tests (PostgreSQL): not run, PostgreSQL did not start"
fi
# A stop (the stage's time limit, Ctrl-C) reaches both runs, and shows how far each got.
stopped() {
  kill -TERM "${pids[@]}" 2>/dev/null
  for i in "${!logs[@]}"; do
    echo "---- api tests (${names[$i]}): stopped; the end of ${logs[$i]}:"
    tail -n 100 "${logs[$i]}"
  done
  exit 130
}
trap stopped INT TERM
status=0
for i in "${!pids[@]}"; do
  s=0
  wait "${pids[$i]}" || s=$?
  echo "---- api tests (${names[$i]}): exit $s"
  cat "${logs[$i]}"
  [ "$s" = 0 ] || status=1
done
[ -n "$PG_URL" ] || status=1 # PostgreSQL not run is not a pass
exit $status
