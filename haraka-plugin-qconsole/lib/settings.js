'use strict';
// Turns the parsed qconsole.ini (+ environment) into the settings the hook uses. Pure: no I/O.

const path = require('node:path');
const { parseLists } = require('./lists');

const DEFAULT_API_URL = 'http://127.0.0.1:8080';
const INGEST_PATH = 'api/quarantine/ingest/';
const DOMAINS_PATH = 'api/mailstack/domains/';
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
  };
}

module.exports = { parseSettings, ingestUrl, DEFAULT_API_URL, DEFAULT_STATE_FILE };
