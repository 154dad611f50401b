'use strict';
// Turns the parsed qconsole.ini (+ environment) into the settings the hook uses. Pure: no I/O.

const path = require('node:path');
const { parseLists } = require('./lists');

const DEFAULT_API_URL = 'http://127.0.0.1:8080';
const INGEST_PATH = 'api/quarantine/ingest/';
const DOMAINS_PATH = 'api/mailstack/domains/';
const LOGS_PATH = 'api/haraka/logs/ingest/';
/** The log shipper's spool, relative to Haraka's directory (not queue/: outbound owns every entry there). */
const DEFAULT_LOG_SPOOL = path.join('state', 'qconsole-logs');
/** The api's limit per ingest request (LOG_LIMITS.batch in @qc/contracts). */
const MAX_LOG_BATCH = 5000;
/** Relative to Haraka's directory. Not in queue/: Haraka deletes dot-files there and logs others as errors. */
const DEFAULT_STATE_FILE = path.join('state', 'qconsole-domains.json');

function text(value) {
  if (value === undefined || value === null) return '';
  return String(value).trim();
}

/** <base>/<apiPath> (a base with a path prefix such as https://host/console keeps it). */
function apiUrl(base, apiPath) {
  const url = new URL(base.endsWith('/') ? base : `${base}/`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported api url: ${base}`);
  return new URL(apiPath, url);
}

/** <base>/api/quarantine/ingest/ */
function ingestUrl(base) {
  return apiUrl(base, INGEST_PATH);
}

function parseBoolean(raw, what, fallback) {
  if (raw === undefined || raw === null || text(raw) === '') return fallback;
  if (typeof raw === 'boolean') return raw;
  const s = text(raw).toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(s)) return true;
  if (['false', 'no', 'off', '0'].includes(s)) return false;
  throw new Error(`${what} must be true or false: ${raw}`);
}

function parseSeconds(raw, what, fallback, min) {
  const n = Number(text(raw) || fallback);
  if (!Number.isFinite(n) || n < min) throw new Error(`${what} must be a number of seconds, at least ${min}: ${raw}`);
  return Math.round(n * 1000);
}

/** [domains]: the console's domains for the rcpt hook (lib/domain-list.js). */
function parseDomains(d, base, env) {
  const file = text(d.state_file);
  const harakaDir = text(env.HARAKA);
  let stateFile = null; // no persistence: only when there is no Haraka directory to resolve against
  if (file && path.isAbsolute(file)) stateFile = file;
  else if (harakaDir) stateFile = path.resolve(harakaDir, file || DEFAULT_STATE_FILE);
  return {
    enabled: parseBoolean(d.enabled, '[domains] enabled', true),
    url: apiUrl(base, DOMAINS_PATH),
    refreshMs: parseSeconds(d.refresh, '[domains] refresh', 10, 0.1),
    timeoutMs: parseSeconds(d.timeout, '[domains] timeout', 5, 0.1),
    stateFile,
  };
}

/** [greylist]: mail a console rule greylisted (lib/greylist.js). */
function parseGreylist(g) {
  const maxEntries = Number(text(g.max_entries) || 100000);
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new Error(`[greylist] max_entries must be a whole number, at least 1: ${g.max_entries}`);
  }
  return {
    windowMs: parseSeconds(g.window, '[greylist] window', 300, 0),
    lifetimeMs: parseSeconds(g.lifetime, '[greylist] lifetime', 86400, 1),
    maxEntries,
  };
}

function parseCount(raw, what, fallback, min, max) {
  const n = Number(text(raw) || fallback);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${what} must be a whole number from ${min} to ${max}: ${raw}`);
  }
  return n;
}

/** [logs]: the log shipper (lib/log-shipper.js). */
function parseLogs(lg, env) {
  const dir = text(lg.spool_dir);
  const harakaDir = text(env.HARAKA);
  let spoolDir = null; // memory only: no Haraka directory to resolve a relative path against
  if (dir && path.isAbsolute(dir)) spoolDir = dir;
  else if (harakaDir) spoolDir = path.resolve(harakaDir, dir || DEFAULT_LOG_SPOOL);
  const spoolMb = Number(text(lg.spool_max_mb) || 50);
  if (!Number.isFinite(spoolMb) || spoolMb <= 0)
    throw new Error(`[logs] spool_max_mb must be a positive number: ${lg.spool_max_mb}`);
  const batch = parseCount(lg.batch, '[logs] batch', 1000, 1, MAX_LOG_BATCH);
  return {
    enabled: parseBoolean(lg.enabled, '[logs] enabled', true),
    flushIntervalMs: parseSeconds(lg.flush_interval, '[logs] flush_interval', 0.5, 0.01),
    flushLines: parseCount(lg.flush_lines, '[logs] flush_lines', 200, 1, MAX_LOG_BATCH),
    batch,
    bufferLines: parseCount(lg.buffer, '[logs] buffer', 10000, 1, 10_000_000),
    timeoutMs: parseSeconds(lg.timeout, '[logs] timeout', 5, 0.1),
    retryMaxMs: parseSeconds(lg.retry_max, '[logs] retry_max', 30, 0.1),
    spoolDir,
    spoolMaxBytes: Math.round(spoolMb * 1024 * 1024),
  };
}

function parseThreshold(raw) {
  const s = text(raw).toLowerCase();
  if (s === '' || s === 'off' || s === 'none' || s === 'false') return null;
  const n = Number(s);
  if (!Number.isFinite(n)) throw new Error(`[quarantine] score_threshold is not a number: ${raw}`);
  return n;
}

/**
 * @param {object} ini  haraka-config's parse of qconsole.ini ({main, api, quarantine})
 * @param {NodeJS.ProcessEnv} env
 */
function parseSettings(ini, env) {
  const api = ini?.api ?? {};
  const q = ini?.quarantine ?? {};
  const d = ini?.domains ?? {};
  const g = ini?.greylist ?? {};
  const l = ini?.lists ?? {};
  const lg = ini?.logs ?? {};
  const base = text(api.url) || text(env.QC_API_URL) || DEFAULT_API_URL;
  const timeout = Number(text(api.timeout) || 20);
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new Error(`[api] timeout must be a positive number: ${api.timeout}`);
  const actions = text(q.actions || 'reject, quarantine')
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean);
  const unscanned = text(q.unscanned || 'defer').toLowerCase();
  if (unscanned !== 'defer' && unscanned !== 'pass') throw new Error(`[quarantine] unscanned must be defer or pass`);
  return {
    url: ingestUrl(base),
    token: text(api.token) || text(env.QC_INGEST_TOKEN),
    timeoutMs: Math.round(timeout * 1000),
    actions: new Set(actions),
    scoreThreshold: parseThreshold(q.score_threshold === undefined ? 10 : q.score_threshold),
    unscanned,
    domains: parseDomains(d, base, env),
    greylist: parseGreylist(g),
    lists: parseLists(l),
    logsUrl: apiUrl(base, LOGS_PATH),
    logs: parseLogs(lg, env),
  };
}

module.exports = { parseSettings, ingestUrl, DEFAULT_API_URL, DEFAULT_STATE_FILE, DEFAULT_LOG_SPOOL };
