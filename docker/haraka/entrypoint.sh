#!/bin/sh
# Haraka in its container: the repository's mail-stack config (mounted read-only at
# HARAKA_CONFIG_SRC) is copied, then given what differs from the loopback stack: listen on every
# address, Rspamd and the next hop by name, the accepted domains, and the user Haraka drops to once
# port 25 is bound. `--config-only` writes the config and stops (test/compose.test.ts runs it).
set -eu
: "${HARAKA_DOMAINS:?set HARAKA_DOMAINS (the domains this MX accepts mail for, comma separated)}"
: "${HARAKA_NEXT_HOP:?set HARAKA_NEXT_HOP (host:port of the server that receives mail not quarantined)}"
SRC="${HARAKA_CONFIG_SRC:-/haraka/config-src}"
APP="${HARAKA_APP_DIR:-/haraka/app}"
CFG="$APP/config"
case "$HARAKA_NEXT_HOP" in
*:*) ;;
*) echo "HARAKA_NEXT_HOP must be host:port, got '$HARAKA_NEXT_HOP'" >&2; exit 2 ;;
esac

rm -rf "$CFG" && mkdir -p "$CFG" && cp -R "$SRC/." "$CFG/"
set_key() { # set_key <file> <key> <value>: the key's line, whatever its spacing, gets the value
  sed -i "s|^$2[[:space:]]*=.*|$2=$3|" "$CFG/$1"
  grep -qxF "$2=$3" "$CFG/$1" || { echo "no '$2' line in $1" >&2; exit 2; }
}
set_key smtp.ini listen '[::0]:25'
set_key smtp.ini public_ip "${HARAKA_PUBLIC_IP:-127.0.0.1}"
printf 'user=%s\ngroup=%s\n' "${HARAKA_USER:-node}" "${HARAKA_USER:-node}" >>"$CFG/smtp.ini"
set_key rspamd.ini host "${RSPAMD_HOST:-rspamd}"
set_key smtp_forward.ini host "${HARAKA_NEXT_HOP%:*}"
set_key smtp_forward.ini port "${HARAKA_NEXT_HOP##*:}"
echo "$HARAKA_DOMAINS" | tr ', ' '\n\n' | grep -v '^$' >"$CFG/host_list"
echo "${HARAKA_ME:-$(hostname)}" >"$CFG/me"

[ "${1:-}" = "--config-only" ] && exit 0
exec node /haraka/node_modules/Haraka/bin/haraka -c "$APP"
