'use strict';
// Reads haraka-plugin-rspamd's verdict (transaction.results.get('rspamd')) and decides. Pure.
//
// The rspamd plugin stores { action, score, required_score, is_skipped, symbols, skip: [], err: [] }.
// `symbols` is first the short form { NAME: score } and is then replaced by Rspamd's own objects
// { NAME: { name, score, metric_score, description?, options?, group?, groups? } }: both are handled.

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

function toNumber(v) {
  if (isNum(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * @returns {{kind: 'quarantine'|'pass'|'defer', reason: string}}
 */
function decide(r, settings) {
  const action = typeof r?.action === 'string' ? r.action.toLowerCase() : '';
  const score = toNumber(r?.score);
  if (action && settings.actions.has(action)) return { kind: 'quarantine', reason: `action=${action}` };
  if (score !== null && settings.scoreThreshold !== null && score >= settings.scoreThreshold) {
    return { kind: 'quarantine', reason: `score=${score}>=${settings.scoreThreshold}` };
  }
  if (action || score !== null) return { kind: 'pass', reason: `action=${action || '-'} score=${score ?? '-'}` };

  // No verdict. A scan skipped on purpose (rspamd.ini [check]: authenticated, relay, local/private ip)
  // passes; anything else (plugin missing, scan error while the rspamd plugin does not defer) follows
  // [quarantine] unscanned.
  const skip = Array.isArray(r?.skip) ? r.skip.filter(Boolean) : [];
  const err = Array.isArray(r?.err) ? r.err.filter(Boolean) : [];
  if (skip.length && !err.length) return { kind: 'pass', reason: `rspamd skipped (${skip.join(',')})` };
  const why = err.length ? `rspamd error (${err.join('; ')})` : 'no rspamd verdict';
  return { kind: settings.unscanned === 'pass' ? 'pass' : 'defer', reason: why };
}

// The api refuses (400) a meta beyond its contract, and a refusal is a 4xx to the sender on
// every retry: clamp what Rspamd may produce in any size to the contract's limits.
const LIMITS = { symbols: 1000, name: 256, text: 4096, options: 100, group: 256 };
const clamp = (s, max) => (s.length > max ? s.slice(0, max) : s);

function stringList(v) {
  if (Array.isArray(v)) return v.map((x) => String(x));
  if (v === undefined || v === null || v === '') return [];
  return [String(v)];
}

/** { NAME: { score, description?, options, group? } } as in the ingest contract (unknown = absent). */
function normalizeSymbols(symbols) {
  const out = {};
  if (!symbols || typeof symbols !== 'object') return out;
  const entries = Object.entries(symbols).map(([key, sym]) => {
    const obj = sym && typeof sym === 'object' ? sym : { score: sym };
    const name = clamp(typeof obj.name === 'string' && obj.name ? obj.name : key, LIMITS.name);
    const entry = { score: toNumber(obj.score) ?? toNumber(obj.metric_score) ?? 0 };
    if (typeof obj.description === 'string' && obj.description) {
      entry.description = clamp(obj.description, LIMITS.text);
    }
    entry.options = stringList(obj.options)
      .slice(0, LIMITS.options)
      .map((o) => clamp(o, LIMITS.text));
    const group = typeof obj.group === 'string' && obj.group ? obj.group : stringList(obj.groups)[0];
    if (group) entry.group = clamp(group, LIMITS.group);
    return [name, entry];
  });
  // Beyond the limit, keep the symbols that weigh most.
  entries.sort((a, b) => Math.abs(b[1].score) - Math.abs(a[1].score));
  for (const [name, entry] of entries.slice(0, LIMITS.symbols)) out[name] = entry;
  return out;
}

function normalizeVerdict(r) {
  return {
    action: typeof r?.action === 'string' ? r.action : '',
    score: toNumber(r?.score) ?? 0,
    required_score: toNumber(r?.required_score) ?? 0,
    symbols: normalizeSymbols(r?.symbols),
  };
}

module.exports = { decide, normalizeVerdict, normalizeSymbols };
