#!/bin/sh
# Writes the container-specific overrides, then runs rspamd in the foreground.
set -eu
: "${RSPAMD_CONTROLLER_PASSWORD:?set RSPAMD_CONTROLLER_PASSWORD (the api's rspamd controller password)}"
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
cat > "$OVR/logging.inc" <<CONF
type = "console";
level = "info";
CONF
cat > "$OVR/redis.conf" <<CONF
servers = "$REDIS";
CONF
exec rspamd -f -u _rspamd -g _rspamd -c /etc/rspamd/rspamd.conf
