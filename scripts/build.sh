#!/usr/bin/env bash
# Builds the front end (host + remotes) with webpack; the filesystem cache in .cache/ makes rebuilds fast.
source "$(dirname "$0")/lib.sh"
log "building host and remotes"
pnpm --filter @qc/host --filter "@qc/remote-*" --workspace-concurrency=1 run build
