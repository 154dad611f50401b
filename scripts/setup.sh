#!/usr/bin/env bash
# Sets the workspace up on a fresh machine (any Node + npm): the pinned Node.js 24 and pnpm in .tools,
# then dependencies. corepack is not used: the registry here serves no signatures (DESIGN §2).
source "$(dirname "$0")/lib.sh"
if ! node_is_pinned; then
  log "installing Node.js $NODE_VERSION ($NODE_PACKAGE, npm registry) into .tools/node"
  npm install --prefix .tools/node "$NODE_PACKAGE@$NODE_VERSION" --no-audit --no-fund --loglevel=error
  hash -r
fi
if ! node_is_pinned; then
  echo "Node.js $NODE_VERSION did not install into .tools/node (is $NODE_PACKAGE on the npm registry?)" >&2
  exit 1
fi
log "Node.js $(node --version) ($(command -v node))"
if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  log "installing pnpm $PNPM_VERSION into .tools/pnpm"
  npm install --prefix .tools/pnpm "pnpm@$PNPM_VERSION" --no-audit --no-fund --loglevel=error
fi
log "installing dependencies"
pnpm install --frozen-lockfile --prefer-offline --reporter=append-only | { grep -v '^Progress' || true; }
