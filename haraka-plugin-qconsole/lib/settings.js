'use strict';
// Turns the parsed qconsole.ini (+ environment) into the settings the hook uses. Pure: no I/O.

const DEFAULT_API_URL = 'http://127.0.0.1:8080';
const INGEST_PATH = 'api/quarantine/ingest/';

function text(value) {
  if (value === undefined || value === null) return '';
  return String(value).trim();
}

/** <base>/api/quarantine/ingest/ (a base with a path prefix such as https://host/console keeps it). */
function ingestUrl(base) {
  const url = new URL(base.endsWith('/') ? base : `${base}/`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported api url: ${base}`);
  return new URL(INGEST_PATH, url);
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
  };
}

module.exports = { parseSettings, ingestUrl, DEFAULT_API_URL };
