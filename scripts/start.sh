#!/usr/bin/env bash
# One command on a fresh machine: set up, build, serve the whole console on the embedded defaults.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build.sh
log "serving the console on http://${QC_HOST:-127.0.0.1}:${QC_PORT:-8080}"
exec bash scripts/serve.sh
