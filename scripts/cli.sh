#!/usr/bin/env bash
# User management: npm run cli -- user:create --email … --password … --role … [--domain …]
source "$(dirname "$0")/lib.sh"
exec "$ROOT/api/node_modules/.bin/tsx" api/src/cli.ts "$@"
