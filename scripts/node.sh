#!/usr/bin/env bash
# Runs a script on the project's Node.js 24 (lib.sh), set up first if needed:
#   npm run node -- mailstack/run.mjs        npm run node -- bench/lighthouse.mjs --runs 3
source "$(dirname "$0")/lib.sh"
node_is_pinned || bash scripts/setup.sh >&2
exec node "$@"
