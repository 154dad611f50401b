#!/usr/bin/env bash
# The shared test OpenID Provider, like ldap.sh: `oidc.sh start` runs test/oidc/provider.mjs
# (oidc-provider; its header says who can sign in) in the background on
# http://127.0.0.1:$QC_OIDC_PORT (default 55480, the issuer), its pid and log in $QC_OIDC_DIR
# (default /tmp/qc-test-oidc). Client qc-console / qc-console-secret, registered for the console on
# 127.0.0.1:8080. `oidc.sh stop` stops it, `oidc.sh running` succeeds when its discovery answers.
# (An api test may instead start one of its own: startOidcProvider in api/src/test/oidc-provider.ts.)
source "$(dirname "$0")/lib.sh"
PORT=${QC_OIDC_PORT:-55480}
DIR=${QC_OIDC_DIR:-/tmp/qc-test-oidc}
ISSUER="http://127.0.0.1:$PORT"

answers() { # its discovery document names it (node's fetch: no curl needed)
  node -e 'const [iss] = process.argv.slice(1);
    fetch(`${iss}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(1000) })
      .then((r) => r.json()).then((d) => process.exit(d.issuer === iss ? 0 : 1), () => process.exit(1));' "$ISSUER"
}
pid() { cat "$DIR/provider.pid" 2>/dev/null || true; }
alive() { local p; p=$(pid); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
halt() { # stops our provider (its pid file), waiting up to 2 s for it to let go of the port
  local p; p=$(pid)
  if [ -n "$p" ] && kill "$p" 2>/dev/null; then
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.02; done
  fi
}

case "${1:-}" in
start)
  if alive && answers; then exit 0; fi
  halt # one that runs but does not answer
  rm -rf "$DIR" && mkdir -p "$DIR"
  # setsid + nohup: it outlives this script and the stage's process group (test.sh stops it).
  setsid nohup node "$ROOT/test/oidc/provider.mjs" --port "$PORT" --verbose \
    --redirect-uri "http://127.0.0.1:8080/api/auth/oidc/callback/" \
    --post-logout-redirect-uri "http://127.0.0.1:8080/login" </dev/null >"$DIR/provider.log" 2>&1 &
  echo $! >"$DIR/provider.pid"
  for _ in $(seq 750); do # up to 15 s
    grep -q '^ready ' "$DIR/provider.log" && exit 0
    alive || break
    sleep 0.02
  done
  echo "oidc.sh: the OpenID Provider did not start on $ISSUER:" >&2
  tail -n 20 "$DIR/provider.log" >&2
  halt
  exit 1
  ;;
running)
  alive && answers
  ;;
stop)
  halt
  rm -rf "$DIR"
  ;;
*) echo "usage: oidc.sh start|stop|running" >&2; exit 2 ;;
esac
