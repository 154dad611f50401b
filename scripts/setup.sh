#!/usr/bin/env bash
# Sets the workspace up on a fresh machine (Node 20 + npm): pinned pnpm in .tools, then dependencies.
# corepack is not used: the registry here serves no signatures (DESIGN §2).
source "$(dirname "$0")/lib.sh"
if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  log "installing pnpm $PNPM_VERSION into .tools/pnpm"
  npm install --prefix .tools/pnpm "pnpm@$PNPM_VERSION" --no-audit --no-fund --loglevel=error
fi
# better-sqlite3 has no prebuilt binary on the npm registry: node-gyp builds it (against the
# machine's Node headers, npm's nodedir). Machines of this kind have the compilers; apt if not.
ensure_apt make make
ensure_apt g++ g++
ensure_apt python3 python3
log "installing dependencies"
pnpm install --frozen-lockfile --prefer-offline --reporter=append-only | { grep -v '^Progress' || true; }
