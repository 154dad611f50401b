# Sourced by the other scripts: repository root, pinned pnpm on PATH, small helpers.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PNPM_VERSION=10.34.8
export PATH="$ROOT/.tools/pnpm/node_modules/.bin:$ROOT/node_modules/.bin:$PATH"
export NPM_CONFIG_UPDATE_NOTIFIER=false

log() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

# apt packages are installed only when the command they provide is missing (fresh machines, CI).
ensure_apt() { # ensure_apt <command> <package>...
  local cmd=$1; shift
  if command -v "$cmd" >/dev/null 2>&1; then return 0; fi
  log "installing $* (apt)"
  if [ "$(id -u)" != 0 ]; then echo "need root for apt-get install $*" >&2; return 1; fi
  if [ -z "${QC_APT_UPDATED:-}" ]; then apt-get update -qq; export QC_APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
