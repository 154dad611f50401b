#!/bin/sh
# Writes the container-specific overrides, then runs rspamd in the foreground.
set -eu
: "${RSPAMD_CONTROLLER_PASSWORD:?set RSPAMD_CONTROLLER_PASSWORD (the api's rspamd controller password)}"
# The console's rules (local.d/multimap.conf and rspamd.lua) are fetched through the maps proxy
# (mailstack/rspamd/maps-proxy, mounted at /etc/qc/maps-proxy): nginx on this container's loopback
# adds the secret (QC_RSPAMD_MAPS_TOKEN) and asks the api (QC_RSPAMD_MAPS_URL). Rspamd writes map
# URLs into its log, so its own hold no secret; the secret is in the proxy's config alone (root only).
MAPS_PROXY=/run/qc-maps-proxy
QC_MAPS_PROXY_LISTEN=127.0.0.1:11380 sh /etc/qc/maps-proxy/render.sh "$MAPS_PROXY"
unset QC_RSPAMD_MAPS_TOKEN
nginx -q -t -p "$MAPS_PROXY/" -c "$MAPS_PROXY/nginx.conf" -e stderr
REDIS="${RSPAMD_REDIS:-redis:6379}"
OVR=/etc/rspamd/override.d
HASH=$(rspamadm pw -p "$RSPAMD_CONTROLLER_PASSWORD")
cat > "$OVR/worker-normal.inc" <<CONF
bind_socket = "*:11333";
CONF
cat > "$OVR/worker-controller.inc" <<CONF
bind_socket = "*:11334";
password = "$HASH";
enable_password = "$HASH";
# Debian trusts loopback without a password: trust only a TEST-NET address so it is always asked.
secure_ip = "192.0.2.1";
CONF
# "silent": the main process at info (start, config, added maps), the workers at notice (each
# message's verdict, warnings, errors): no line per map poll. The proxy logs an api it cannot reach.
cat > "$OVR/logging.inc" <<CONF
type = "console";
level = "silent";
CONF
# Hermetic: Debian's maps from maps.rspamd.com (freemail/disposable, mime_types, mid, rbl, whitelist,
# phishing) read from local files instead, with the loopback stack's own override files
# (mailstack/rspamd/hermetic, mounted by docker-compose.yml): nothing Rspamd loads comes from outside.
HERMETIC=/etc/rspamd/hermetic
[ -f "$HERMETIC/multimap.conf" ] || { echo "mount mailstack/rspamd/hermetic at $HERMETIC" >&2; exit 2; }
cp "$HERMETIC"/*.conf "$OVR/"
cat > "$OVR/redis.conf" <<CONF
servers = "$REDIS";
CONF
WATCH="${RSPAMD_MAP_WATCH_INTERVAL:-5s}"
case "$WATCH" in
'' | *[!0-9a-z.]*) echo "RSPAMD_MAP_WATCH_INTERVAL must be a duration such as 5s (got '$WATCH')" >&2; exit 2 ;;
esac
# Rspamd 3.4 asks again when the api's Expires says (QC_RSPAMD_MAPS_EXPIRES, 5 s in compose): at 5 s
# a rule saved in the console was live after 4.2 s (median), 6.0 s at most (bench/rspamd/run.mjs).
# cache_file = null: Rspamd 3.4 cannot save its symbols cache (rspamd/rspamd#4337: symbols.cache.new is
# opened without O_CREAT), so it logged an error at every stop and rebuilt the cache at every start.
cat > "$OVR/options.inc" <<CONF
map_watch_interval = $WATCH;
cache_file = null;
CONF
# The proxy runs beside Rspamd (its errors in this container's log); the health check asks both.
nginx -p "$MAPS_PROXY/" -c "$MAPS_PROXY/nginx.conf" -e stderr -g 'daemon off;' &
exec rspamd -f -u _rspamd -g _rspamd -c /etc/rspamd/rspamd.conf "--var=QC_MAPS_URL=http://127.0.0.1:11380/api/rspamd/maps"
