'use strict';
// The compose Rspamd loads nothing from outside the machine (issue 17): its configuration as the
// container builds it (Debian's /etc/rspamd, the repository's local.d, override.d = the files of
// mailstack/rspamd/hermetic that docker/rspamd/entrypoint.sh copies there) is dumped by the real
// rspamadm, and every URL left in it is the console's map URL, or belongs to a module that is off.
// (The loopback stack uses the same files: filters.test.js checks the maps its Rspamd really added.)

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ensureBinaries } = require('..');

const RSPAMD = path.join(__dirname, '..', 'rspamd');
const QC_MAPS_URL = 'http://127.0.0.1:11380/api/rspamd/maps'; // compose: the maps proxy

/** Every string of a JSON value with its path, skipping objects turned off (`enabled: false`). */
function strings(value, at = '', out = []) {
  if (typeof value === 'string') out.push({ at, value });
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${at}[${i}]`, out));
  else if (value && typeof value === 'object' && value.enabled !== false)
    for (const [k, v] of Object.entries(value)) strings(v, `${at}.${k}`, out);
  return out;
}

/** The URLs of Rspamd's effective configuration (LOCAL_CONFDIR laid out like the compose container). */
function configuredUrls({ hermetic }) {
  const { rspamadm } = ensureBinaries();
  const conf = fs.mkdtempSync(path.join(os.tmpdir(), 'qc-hermetic-'));
  try {
    fs.cpSync(path.join(RSPAMD, 'local.d'), path.join(conf, 'local.d'), { recursive: true });
    fs.mkdirSync(path.join(conf, 'override.d'));
    if (hermetic) {
      fs.cpSync(path.join(RSPAMD, 'hermetic'), path.join(conf, 'hermetic'), { recursive: true });
      for (const f of fs.readdirSync(path.join(conf, 'hermetic')).filter((n) => n.endsWith('.conf')))
        fs.copyFileSync(path.join(conf, 'hermetic', f), path.join(conf, 'override.d', f));
    }
    const dump = execFileSync(
      rspamadm,
      [`--var=LOCAL_CONFDIR=${conf}`, `--var=QC_MAPS_URL=${QC_MAPS_URL}`, 'configdump', '-C'],
      { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 },
    );
    return strings(JSON.parse(dump.toString('utf8'))).filter((s) => /[a-z]+:\/\//i.test(s.value));
  } finally {
    fs.rmSync(conf, { recursive: true, force: true });
  }
}

const outside = (urls) =>
  urls
    .filter(({ value }) => !value.startsWith(`${QC_MAPS_URL}/`))
    .filter(({ value }) => !/^(fallback\+)?file:\/\/\//.test(value))
    .filter(({ at }) => !/\.description$|\.help$/.test(at)); // prose naming a web site loads nothing

test('with the hermetic overrides, every map Rspamd is configured with is local or the console api', () => {
  const urls = configuredUrls({ hermetic: true });
  expect(outside(urls)).toEqual([]);
  expect(urls.filter(({ value }) => value.startsWith(`${QC_MAPS_URL}/`)).length).toBeGreaterThan(20);
}, 60_000);

test("without them, Rspamd would fetch Debian's maps from the network (what the overrides are for)", () => {
  const hosts = new Set(
    outside(configuredUrls({ hermetic: false })).map(({ value }) => new URL(value.replace(/^[a-z]+[+;]/, '')).host),
  );
  expect(hosts).toContain('maps.rspamd.com');
}, 60_000);
