# Sourced by the other scripts: repository root, the project's Node.js and pnpm on PATH, helpers.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PNPM_VERSION=10.34.8
# Node.js 24 LTS, from the npm registry (node-linux-<arch>: the binary and its headers), installed
# by setup.sh into .tools/node. Every step runs on it; the machine's own Node only bootstraps it.
NODE_VERSION=24.22.3
case "$(uname -m)" in
  x86_64 | amd64) NODE_ARCH=x64 ;;
  aarch64 | arm64) NODE_ARCH=arm64 ;;
  *) NODE_ARCH="$(uname -m)" ;;
esac
NODE_PACKAGE="node-linux-$NODE_ARCH"
NODE_HOME="$ROOT/.tools/node/node_modules/$NODE_PACKAGE"
export PATH="$NODE_HOME/bin:$ROOT/.tools/pnpm/node_modules/.bin:$ROOT/node_modules/.bin:$PATH"
# A native addon built from source builds against that Node's headers, not the machine's (npm's
# nodedir=/usr on machines of this kind would give it the wrong ABI). None does today: better-sqlite3
# 13, argon2 and swc ship N-API binaries in their npm packages.
export npm_config_nodedir="$NODE_HOME"
# True when `node` on the PATH is the pinned one (setup.sh installs it when not).
node_is_pinned() { [ "$(node --version 2>/dev/null || true)" = "v$NODE_VERSION" ]; }
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
