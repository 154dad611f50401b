#!/bin/sh
# Writes the maps proxy's config (nginx.conf beside this script, filled in) as <dir>/nginx.conf,
# readable by its owner alone. Run by docker/rspamd/entrypoint.sh and by the loopback stack
# (mailstack/lib/maps-proxy.js). Reads, from the environment (never a command line):
#   QC_RSPAMD_MAPS_TOKEN  the api's secret for the maps (sent as basic auth, any user name)
#   QC_RSPAMD_MAPS_URL    the api's map URL, without credentials: http://api:8080/api/rspamd/maps
#   QC_MAPS_PROXY_LISTEN  where the proxy listens: 127.0.0.1:<port>
# The DNS server is the system's (/etc/resolv.conf): Docker's, in compose.
set -eu
DIR=${1:?usage: render.sh <dir>}
: "${QC_RSPAMD_MAPS_TOKEN:?set QC_RSPAMD_MAPS_TOKEN (the api's secret for the Rspamd maps)}"
: "${QC_RSPAMD_MAPS_URL:?set QC_RSPAMD_MAPS_URL (the api's map URL, e.g. http://api:8080/api/rspamd/maps)}"
: "${QC_MAPS_PROXY_LISTEN:?set QC_MAPS_PROXY_LISTEN (address:port)}"
# Only what nginx takes literally: no credentials (@), no quotes, blanks, $ or ; in the URL.
case "$QC_RSPAMD_MAPS_URL" in
*[!A-Za-z0-9:/._-]*) ;;
http://?*/?* | https://?*/?*) URL_OK=1 ;;
esac
[ -n "${URL_OK:-}" ] || {
  # Not echoed: a URL with credentials would put the secret into the log.
  echo "QC_RSPAMD_MAPS_URL must be http(s)://<host:port>/<path>: letters, digits and : / . _ - only, no credentials" >&2
  exit 2
}
case "$QC_MAPS_PROXY_LISTEN" in
*[!0-9.:]* | '') echo "QC_MAPS_PROXY_LISTEN must be <address>:<port> (got '$QC_MAPS_PROXY_LISTEN')" >&2; exit 2 ;;
esac
RESOLVER=$(awk '$1 == "nameserver" { print $2; exit }' /etc/resolv.conf 2>/dev/null || true)
case "$RESOLVER" in
'') RESOLVER=127.0.0.1 ;;
*:*) RESOLVER="[$RESOLVER]" ;;
esac
# printf is the shell's own: the secret is on no process's command line.
QC_MAPS_PROXY_AUTHORIZATION="Basic $(printf 'rspamd:%s' "$QC_RSPAMD_MAPS_TOKEN" | base64 | tr -d '\n')"
umask 077
mkdir -p "$DIR"
QC_MAPS_PROXY_AUTHORIZATION=$QC_MAPS_PROXY_AUTHORIZATION QC_MAPS_PROXY_RESOLVER=$RESOLVER awk '{
  gsub(/@LISTEN@/, ENVIRON["QC_MAPS_PROXY_LISTEN"])
  gsub(/@RESOLVER@/, ENVIRON["QC_MAPS_PROXY_RESOLVER"])
  gsub(/@UPSTREAM@/, ENVIRON["QC_RSPAMD_MAPS_URL"])
  gsub(/@AUTHORIZATION@/, ENVIRON["QC_MAPS_PROXY_AUTHORIZATION"])
  print
}' "$(dirname "$0")/nginx.conf" >"$DIR/nginx.conf"
