#!/usr/bin/env bash
# Serves what is built: the api, the host at /, the remotes under /remotes/<folder>/ (no rebuild).
source "$(dirname "$0")/lib.sh"
[ -f host/dist/index.html ] || { echo "Nothing is built yet: run 'npm start' (or 'npm run build') first." >&2; exit 1; }
exec "$ROOT/api/node_modules/.bin/tsx" api/src/main.ts
