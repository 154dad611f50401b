#!/usr/bin/env bash
# `npm test`: sets everything up on a fresh machine and runs every test: lint, format, typecheck,
# unit + component + API tests on SQLite, the API tests again on a real PostgreSQL, the front-end
# build, then Playwright end-to-end in Debian Chromium. Every stage runs; the run fails if any did.
source "$(dirname "$0")/lib.sh"
RESULTS="$ROOT/test-results"
rm -rf "$RESULTS" && mkdir -p "$RESULTS"
failed=()
stage() { # stage <name> <command...>
  local name=$1; shift
  log "$name"
  local t0=$SECONDS
  if "$@"; then echo "-- $name: ok ($((SECONDS - t0)) s)"; else echo "-- $name: FAILED ($((SECONDS - t0)) s)"; failed+=("$name"); fi
}

bash scripts/setup.sh
ensure_apt chromium chromium fonts-liberation
ensure_apt rspamd rspamd
ensure_apt redis-server redis-server
export QC_PG_PORT=${QC_PG_PORT:-55432}
bash scripts/pg.sh start
trap 'bash scripts/pg.sh stop' EXIT

stage lint eslint --max-warnings=0 .
stage format prettier --check --log-level=warn .
stage typecheck pnpm -r --workspace-concurrency=2 --if-present run typecheck
stage "jest (SQLite)" jest --ci --json --outputFile="$RESULTS/jest-sqlite.json"
stage "api tests (PostgreSQL)" env QC_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$QC_PG_PORT/postgres" \
  jest --ci --selectProjects api --json --outputFile="$RESULTS/jest-postgres.json"
stage build bash scripts/build.sh
stage e2e env PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/e2e.json" \
  pnpm --filter @qc/e2e exec playwright test --reporter=list,json

node scripts/test-summary.mjs "$RESULTS" "${failed[@]+"${failed[@]}"}"
