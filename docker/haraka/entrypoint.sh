#!/bin/sh
# Haraka in its container: the repository's mail-stack config (mounted read-only at
# HARAKA_CONFIG_SRC) is copied, then given what differs from the loopback stack: listen on every
# address, Rspamd and the next hop by name, host_list, and the user Haraka drops to once port 25 is
# bound. `--config-only` writes the config and stops (test/compose.test.ts runs it).
# The accepted domains are the console's (haraka-plugin-qconsole polls the api and saves the list
# in $APP/state, a volume): HARAKA_DOMAINS goes to host_list, used only at the very first start,
# before the api has ever answered.
set -eu
: "${HARAKA_DOMAINS:?set HARAKA_DOMAINS (domains accepted at the first start, until the console's list arrives; comma separated)}"
: "${HARAKA_NEXT_HOP:?set HARAKA_NEXT_HOP (host:port of the server that receives mail not quarantined)}"
SRC="${HARAKA_CONFIG_SRC:-/haraka/config-src}"
APP="${HARAKA_APP_DIR:-/haraka/app}"
CFG="$APP/config"
# Each value goes into an ini line: a host name, an address or a port, nothing else.
plain() { # plain <name> <value>
  case "$2" in
  '' | *[!A-Za-z0-9.:_-]*) echo "$1 may hold only letters, digits and . : _ - (got '$2')" >&2; exit 2 ;;
  esac
}
NEXT_HOST="${HARAKA_NEXT_HOP%:*}"
NEXT_PORT="${HARAKA_NEXT_HOP##*:}"
case "$NEXT_PORT" in
'' | *[!0-9]*) echo "HARAKA_NEXT_HOP must be host:port (an IPv4 address or a name), got '$HARAKA_NEXT_HOP'" >&2; exit 2 ;;
esac
plain HARAKA_NEXT_HOP "$NEXT_HOST"
plain RSPAMD_HOST "${RSPAMD_HOST:-rspamd}"
plain HARAKA_PUBLIC_IP "${HARAKA_PUBLIC_IP:-127.0.0.1}"
plain HARAKA_USER "${HARAKA_USER:-node}"
DOMAINS=$(echo "$HARAKA_DOMAINS" | tr ', ' '\n\n' | sed '/^$/d')
[ -n "$DOMAINS" ] || { echo "HARAKA_DOMAINS names no domain" >&2; exit 2; }
for d in $DOMAINS; do plain HARAKA_DOMAINS "$d"; done
ME="${HARAKA_ME:-$(hostname)}"
plain HARAKA_ME "$ME"

rm -rf "$CFG" && mkdir -p "$CFG" && cp -R "$SRC/." "$CFG/"
set_key() { # set_key <file> <key> <value>: the key's line, whatever its spacing, gets the value
  sed -i "s|^$2[[:space:]]*=.*|$2=$3|" "$CFG/$1"
  grep -qxF "$2=$3" "$CFG/$1" || { echo "no '$2' line in $1" >&2; exit 2; }
}
set_key smtp.ini listen '[::0]:25'
set_key smtp.ini public_ip "${HARAKA_PUBLIC_IP:-127.0.0.1}"
printf 'user=%s\ngroup=%s\n' "${HARAKA_USER:-node}" "${HARAKA_USER:-node}" >>"$CFG/smtp.ini"
set_key rspamd.ini host "${RSPAMD_HOST:-rspamd}"
set_key smtp_forward.ini host "$NEXT_HOST"
set_key smtp_forward.ini port "$NEXT_PORT"
echo "$DOMAINS" >"$CFG/host_list"
echo "$ME" >"$CFG/me"

[ "${1:-}" = "--config-only" ] && exit 0
# A queue (and the saved domain list) written while Haraka still ran as root stays usable by the
# user it now drops to.
mkdir -p "$APP/state"
chown -R "${HARAKA_USER:-node}:${HARAKA_USER:-node}" "$APP/queue" "$APP/state"
exec node /haraka/node_modules/Haraka/bin/haraka -c "$APP"
