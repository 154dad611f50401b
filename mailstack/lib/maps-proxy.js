'use strict';
// The proxy Rspamd fetches the console's maps through (rspamd/maps-proxy: Debian's nginx on a
// loopback port, as docker/rspamd/entrypoint.sh runs it): Rspamd's map URLs name the proxy, so the
// secret is in no URL Rspamd holds, logs or shows; only the proxy's config, which its owner alone
// reads, holds it.

const dns = require('node:dns/promises');
const net = require('node:net');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const RENDER = path.join(__dirname, '..', 'rspamd', 'maps-proxy', 'render.sh');
/** The path Rspamd asks the proxy for: the api's own, so Rspamd's log still reads as the api's maps. */
const MAPS_PATH = '/api/rspamd/maps';

/** The api's map URL with its host as an address: the loopback proxy asks no DNS server. */
async function withAddress(url) {
  const u = new URL(url);
  if (!net.isIP(u.hostname.replace(/^\[|\]$/g, ''))) u.hostname = (await dns.lookup(u.hostname, { family: 4 })).address;
  return u.href.replace(/\/+$/, '');
}

/**
 * Writes the proxy's config into `dir` (render.sh: the secret goes through its environment) and
 * returns nginx's arguments and the URL Rspamd is given (QC_MAPS_URL).
 */
async function writeMapsProxy(dir, { port, url, token }) {
  const listen = `127.0.0.1:${port}`;
  execFileSync('sh', [RENDER, dir], {
    env: {
      PATH: process.env.PATH,
      QC_RSPAMD_MAPS_TOKEN: token,
      QC_RSPAMD_MAPS_URL: await withAddress(url),
      QC_MAPS_PROXY_LISTEN: listen,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return {
    args: ['-p', `${dir}/`, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr', '-g', 'daemon off;'],
    pingUrl: `http://${listen}/ping`,
    rspamdUrl: `http://${listen}${MAPS_PATH}`,
  };
}

module.exports = { writeMapsProxy };
