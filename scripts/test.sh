#!/usr/bin/env bash
# `npm test`: sets everything up on a fresh machine and runs every test: lint, format, typecheck,
# unit + component + API tests on SQLite, the API tests again on a real PostgreSQL, the front-end
# build, then Playwright end-to-end in Debian Chromium. Every stage runs; the run fails if any did.
source "$(dirname "$0")/lib.sh"
RESULTS="$ROOT/test-results"
rm -rf "$RESULTS" && mkdir -p "$RESULTS"
failed=()
stage() { # stage <name> <minutes> <command...>: a stage that hangs is stopped, and counted as failed
  local name=$1 minutes=$2; shift 2
  log "$name"
  local t0=$SECONDS status=0
  # timeout runs the stage in a process group of its own, which Ctrl-C no longer reaches: pass it on.
  timeout -k 30 "${minutes}m" "$@" &
  local pid=$!
  trap 'kill -TERM -- -'"$pid"' 2>/dev/null; exit 130' INT TERM
  wait "$pid" || status=$?
  trap - INT TERM
  if [ "$status" = 0 ]; then
    echo "-- $name: ok ($((SECONDS - t0)) s)"
  else
    echo "-- $name: FAILED ($((SECONDS - t0)) s)"
    failed+=("$name")
  fi
}
summary() { node scripts/test-summary.mjs "$RESULTS" "${failed[@]+"${failed[@]}"}"; }
# The test PostgreSQL, OpenLDAP and OpenID Provider are removed at the end, unless they were already
# up (ones a developer started with `pg.sh start` / `ldap.sh start` / `oidc.sh start`, same data
# folders): those are left running.
pg_ours=1 ldap_ours=1 oidc_ours=1
if bash scripts/pg.sh running; then pg_ours=""; fi
if bash scripts/ldap.sh running; then ldap_ours=""; fi
if bash scripts/oidc.sh running; then oidc_ours=""; fi
trap '[ -z "$pg_ours" ] || bash scripts/pg.sh stop; [ -z "$ldap_ours" ] || bash scripts/ldap.sh stop
  [ -z "$oidc_ours" ] || bash scripts/oidc.sh stop' EXIT

# Set-up failures are reported like any other stage, so the run still ends with its summary line.
stage setup 20 bash scripts/setup.sh
if [ ${#failed[@]} -gt 0 ]; then summary; exit 1; fi
stage "system packages" 20 bash -c 'source scripts/lib.sh
  ensure_apt chromium chromium fonts-liberation
  ensure_apt rspamd rspamd
  ensure_apt redis-server redis-server
  ensure_apt nginx nginx'
export QC_PG_PORT=${QC_PG_PORT:-55432}
stage postgresql 10 bash scripts/pg.sh start
# The directory the api tests sign in against (both api runs share it; each test file works in a
# subtree of its own): slapd on loopback, seeded with test/ldap/seed.ldif.
export QC_TEST_LDAP_URL="ldap://127.0.0.1:${QC_LDAP_PORT:-55389}"
export QC_TEST_LDAPS_URL="ldaps://127.0.0.1:${QC_LDAPS_PORT:-55636}"
export QC_TEST_LDAP_CA_FILE="${QC_LDAP_DIR:-/tmp/qc-test-ldap}/ca.pem"
stage openldap 5 bash scripts/ldap.sh start
# The OpenID Provider the api tests sign in at (oidc-provider on loopback, test/oidc/provider.mjs).
export QC_TEST_OIDC_ISSUER="http://127.0.0.1:${QC_OIDC_PORT:-55480}"
stage "openid provider" 2 bash scripts/oidc.sh start

stage lint 10 eslint --max-warnings=0 .
stage format 5 prettier --check --log-level=warn .
stage typecheck 10 pnpm -r --workspace-concurrency=2 --if-present run typecheck
# The component tests (jsdom, no daemon, no port) on two workers: they are two thirds of jest's
# time. The api and mail-stack tests each run in one process: they start real daemons on free ports.
stage "jest (web)" 20 jest --ci --selectProjects web --maxWorkers=2 --json --outputFile="$RESULTS/jest-web.json"
# The api tests on SQLite and on PostgreSQL side by side (one process each), then the real mail
# stack's tests alone: they time Rspamd and Haraka, so they get the machine to themselves.
pg_url="postgres://postgres@127.0.0.1:$QC_PG_PORT/postgres"
[[ " ${failed[*]-} " != *" postgresql "* ]] || pg_url=""
stage "api tests (SQLite, PostgreSQL)" 30 bash scripts/test-api.sh "$RESULTS" "$pg_url"
stage "jest (mail stack)" 20 jest --ci --selectProjects mail --json --outputFile="$RESULTS/jest-mail.json"
stage build 20 bash scripts/build.sh
stage e2e 30 env PLAYWRIGHT_JSON_OUTPUT_NAME="$RESULTS/e2e.json" \
  pnpm --filter @qc/e2e exec playwright test --reporter=list,json

summary
