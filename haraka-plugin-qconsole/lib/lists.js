'use strict';
// Whitelists and blacklists, per recipient (issue 18). Pure.
//
// rspamd.lua (mailstack/rspamd/local.d) inserts QC_LIST_WHITELIST / QC_LIST_BLACKLIST with options
// `<owner key>=list:<entry id>`: the owner whose list decided for some recipient (a recipient's
// address, `@<their domain>` or `*` for the global list), once per owner. A recipient's entry is the
// one keyed by their address, else by their @domain, else `*` (mails stored before: keyed by
// recipient only, which resolves the same). The queue hook then decides each recipient's copy:
// - blacklisted: quarantined for that recipient, whatever the verdict (even a rule's forced accept);
// - whitelisted: delivered although the verdict would quarantine it (score, Rspamd's reject such as
//   GTUBE), unless a guard symbol shows the sender may be forged or the mail carries a virus
//   ([lists] guard_symbols, guard_groups), Rspamd skipped its checks (GTUBE, is_skipped: SPF, DMARC
//   and the antivirus never ran, so nothing says the sender is not forged), or a console rule forced
//   the quarantine;
// - anyone else: the message's verdict.
// A forced reject, soft reject, greylist or discard was answered for everyone before and is not
// changed by a list.

const SYMBOL_KIND = { QC_LIST_WHITELIST: 'whitelist', QC_LIST_BLACKLIST: 'blacklist' };
const OPTION = /^(.+)=list:([A-Za-z0-9_-]{1,64})$/;

function symbolEntries(symbols) {
  if (!symbols || typeof symbols !== 'object') return [];
  return Object.entries(symbols).map(([key, sym]) => ({
    name: sym && typeof sym === 'object' && typeof sym.name === 'string' ? sym.name : key,
    sym: sym && typeof sym === 'object' ? sym : {},
  }));
}

function optionList(sym) {
  const o = sym.options;
  return Array.isArray(o) ? o.map(String) : o === undefined || o === null ? [] : [String(o)];
}

/**
 * The list entries that decided, per owner key (lower case): Map → {kind, id}; a key on both lists
 * (cannot happen; kept safe) counts as blacklisted. `truncated`: Rspamd cut the blacklist's options
 * (an option that is not ours, such as its "..."): some blacklisted recipient may be missing.
 */
function listHits(verdict) {
  const hits = new Map();
  let truncated = false;
  for (const { name, sym } of symbolEntries(verdict?.symbols)) {
    const kind = SYMBOL_KIND[name];
    if (!kind) continue;
    for (const option of optionList(sym)) {
      const m = OPTION.exec(option);
      if (!m) {
        if (kind === 'blacklist') truncated = true;
        continue;
      }
      const key = m[1].toLowerCase();
      if (hits.get(key)?.kind === 'blacklist') continue;
      hits.set(key, { kind, id: m[2] });
    }
  }
  return Object.assign(hits, { truncated });
}

/** The entry that applies to one recipient: keyed by their address, else their @domain, else `*`. */
function hitFor(hits, address) {
  const rcpt = String(address).toLowerCase();
  const at = rcpt.lastIndexOf('@');
  return hits.get(rcpt) ?? (at > 0 ? hits.get(rcpt.slice(at)) : undefined) ?? hits.get('*') ?? null;
}

/**
 * What forbids a whitelist to deliver: the guard symbols of the verdict (names, in its order), and
 * Rspamd having skipped its checks (GTUBE or is_skipped: SPF, DMARC and the antivirus never ran).
 */
function guardSymbols(verdict, lists) {
  const found = [];
  if (verdict?.is_skipped === true) found.push('is_skipped');
  for (const { name, sym } of symbolEntries(verdict?.symbols)) {
    const groups = [sym.group, ...(Array.isArray(sym.groups) ? sym.groups : [])]
      .filter((g) => typeof g === 'string')
      .map((g) => g.toLowerCase());
    const upper = name.toUpperCase();
    if (upper === 'GTUBE' || lists.guardSymbols.has(upper) || groups.some((g) => lists.guardGroups.has(g))) {
      found.push(name);
    }
  }
  return found;
}

/**
 * What happens to each recipient's copy.
 * @param {object} o
 * @param {object} o.verdict   haraka-plugin-rspamd's result
 * @param {{action: string}|null} o.forced  the console rule's forced action (lib/forced.js)
 * @param {{kind: 'quarantine'|'pass', reason: string}} o.base  the message's decision
 * @param {string[]} o.recipients  the envelope recipients (as given)
 * @param {{guardSymbols: Set<string>, guardGroups: Set<string>}} o.lists  settings.lists
 * @returns {{address: string, kind: 'quarantine'|'pass', reason: string, list: null|{kind: string, id: string}}[]}
 */
function recipientPlan({ verdict, forced, base, recipients, lists }) {
  const hits = listHits(verdict);
  const guards = hits.size ? guardSymbols(verdict, lists) : [];
  return recipients.map((address) => {
    const hit = hitFor(hits, address);
    const entry = hit ? `list:${hit.id}` : '';
    if (!hit && hits.truncated) {
      // Rspamd cut the blacklist's options: this recipient may be on it. Held rather than let through.
      return { address, kind: 'quarantine', reason: 'blacklist options cut by Rspamd: held to be safe', list: null };
    }
    if (!hit) return { address, kind: base.kind, reason: base.reason, list: null };
    if (hit.kind === 'blacklist') return { address, kind: 'quarantine', reason: `blacklist ${entry}`, list: hit };
    if (base.kind !== 'quarantine') return { address, kind: 'pass', reason: `whitelist ${entry}`, list: hit };
    if (forced?.action === 'quarantine') {
      return { address, kind: 'quarantine', reason: `${base.reason}; whitelist ${entry} not applied`, list: hit };
    }
    if (guards.length) {
      return {
        address,
        kind: 'quarantine',
        reason: `${base.reason}; whitelist ${entry} not applied (${guards.join(', ')})`,
        list: hit,
      };
    }
    return { address, kind: 'pass', reason: `whitelist ${entry} over ${base.reason}`, list: hit };
  });
}

// SPF fail and softfail (~all: "probably not us"), DMARC failing whatever its policy (p=none is
// DMARC_POLICY_SOFTFAIL: the header From is not aligned, i.e. may be forged), and the antivirus.
const DEFAULT_GUARD_SYMBOLS =
  'R_SPF_FAIL, R_SPF_SOFTFAIL, DMARC_POLICY_REJECT, DMARC_POLICY_QUARANTINE, DMARC_POLICY_SOFTFAIL, ' +
  'CLAM_VIRUS, FPROT_VIRUS, SOPHOS_VIRUS, AVAST_VIRUS, KASPERSKY_VIRUS, ICAP_VIRUS';
const DEFAULT_GUARD_GROUPS = 'antivirus';

/** [lists]: guard_symbols, guard_groups (comma-separated; empty: none). */
function parseLists(l = {}) {
  const set = (raw, fallback, upper) =>
    new Set(
      String(raw === undefined || raw === null ? fallback : raw)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => (upper ? s.toUpperCase() : s.toLowerCase())),
    );
  return {
    guardSymbols: set(l.guard_symbols, DEFAULT_GUARD_SYMBOLS, true),
    guardGroups: set(l.guard_groups, DEFAULT_GUARD_GROUPS, false),
  };
}

module.exports = { guardSymbols, hitFor, listHits, parseLists, recipientPlan, DEFAULT_GUARD_SYMBOLS };
