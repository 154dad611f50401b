'use strict';
// Whitelists and blacklists, per recipient (issue 18). Pure.
//
// rspamd.lua (mailstack/rspamd/local.d) inserts QC_LIST_WHITELIST / QC_LIST_BLACKLIST with options
// `<owner key>=list:<entry id>`: the owner whose list decided for some recipient (a recipient's
// address, `@<their domain>` or `*` for the global list), once per owner. A whitelist option also
// names the identities its entry matched (issue 29): `:env` (the envelope sender) and/or
// `:from:<organisational domain of the header From>`, e.g. `bob@example.com=list:01J…:env`; an owner
// whose whitelist matched several entries has one option each. A recipient's entry is the one keyed
// by their address, else by their @domain, else `*` (mails stored before: keyed by recipient only,
// which resolves the same). The queue hook then decides each recipient's copy:
// - blacklisted: quarantined for that recipient, whatever the verdict (even a rule's forced accept);
// - whitelisted: delivered although the verdict would quarantine it (score, Rspamd's reject such as
//   GTUBE) only when an identity the entry matched is authenticated: the envelope sender passes SPF
//   (R_SPF_ALLOW), or the header From passes DMARC or carries a valid DKIM signature of its
//   organisational domain (DMARC_POLICY_ALLOW, R_DKIM_ALLOW d= aligned). An option without
//   identities (an older rspamd.lua) is not authenticated. Even then not delivered when a guard symbol
//   shows the sender may be forged or the mail carries a virus ([lists] guard_symbols,
//   guard_groups), Rspamd skipped its checks (GTUBE, is_skipped: SPF, DMARC and the antivirus never
//   ran), or a console rule forced the quarantine;
// - anyone else: the message's verdict.
// A forced reject, soft reject, greylist or discard was answered for everyone before and is not
// changed by a list.

const SYMBOL_KIND = { QC_LIST_WHITELIST: 'whitelist', QC_LIST_BLACKLIST: 'blacklist' };
const OPTION = /^(.+)=list:([A-Za-z0-9_-]{1,64})(:env)?(?::from:([^\s:]+))?$/;

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
 * The list entries that decided, per owner key (lower case): Map → {kind, id} and, for a whitelist,
 * `matches` [{id, env, from}] (each entry of that owner and what it matched: the envelope sender,
 * the header From's organisational domain); a key on both lists (cannot happen; kept safe) counts as
 * blacklisted. `truncated`: Rspamd cut the blacklist's options (an option that is not ours, such as
 * its "..."): some blacklisted recipient may be missing.
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
      const known = hits.get(key);
      if (known?.kind === 'blacklist') continue;
      if (kind === 'blacklist') {
        hits.set(key, { kind, id: m[2] });
        continue;
      }
      const match = { id: m[2], env: Boolean(m[3]), from: m[4] ? m[4].toLowerCase() : null };
      if (known) known.matches.push(match);
      else hits.set(key, { kind, id: m[2], matches: [match] });
    }
  }
  return Object.assign(hits, { truncated });
}

/** The entries of one recipient's owners, most specific first: their address, their @domain, `*`. */
function hitsFor(hits, address) {
  const rcpt = String(address).toLowerCase();
  const at = rcpt.lastIndexOf('@');
  return [rcpt, at > 0 ? rcpt.slice(at) : null, '*'].map((key) => key && hits.get(key)).filter(Boolean);
}

/** The entry that applies to one recipient: keyed by their address, else their @domain, else `*`. */
function hitFor(hits, address) {
  return hitsFor(hits, address)[0] ?? null;
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

/** A domain aligned with an organisational domain (DMARC's relaxed alignment): it or a subdomain. */
const aligned = (domain, org) => domain === org || domain.endsWith(`.${org}`);

/**
 * What Rspamd authenticated (its default symbol names): the envelope sender's domain passed SPF
 * (R_SPF_ALLOW); the domains of valid DKIM signatures (R_DKIM_ALLOW options `<d>:s=<selector>`,
 * before Rspamd 2 `<d>`); the header From passed DMARC (DMARC_POLICY_ALLOW options `<policy domain>`,
 * `<policy>`: the From's domain or its organisational domain).
 */
function authenticated(verdict) {
  const auth = { spf: false, dkim: [], dmarc: [] };
  const domain = (option) => option.split(':')[0].toLowerCase();
  for (const { name, sym } of symbolEntries(verdict?.symbols)) {
    const upper = name.toUpperCase();
    const options = optionList(sym);
    if (upper === 'R_SPF_ALLOW') auth.spf = true;
    if (upper === 'R_DKIM_ALLOW') auth.dkim.push(...options.map(domain));
    if (upper === 'DMARC_POLICY_ALLOW' && options.length) auth.dmarc.push(domain(options[0]));
  }
  return auth;
}

/**
 * How a whitelist entry's match is authenticated ('SPF', 'DMARC', 'DKIM d=<domain>'), or null: the
 * entry must name the identity that passed, so a forged header From does not ride the envelope
 * sender's SPF pass, nor a forged envelope sender the From's DKIM signature.
 */
function authenticatedBy(match, auth) {
  if (match.env && auth.spf) return 'SPF';
  if (!match.from) return null;
  if (auth.dmarc.some((d) => aligned(d, match.from))) return 'DMARC';
  const d = auth.dkim.find((domain) => aligned(domain, match.from));
  return d ? `DKIM d=${d}` : null;
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
  const auth = authenticated(verdict);
  return recipients.map((address) => {
    const chain = hitsFor(hits, address);
    if (!chain.length && hits.truncated) {
      // Rspamd cut the blacklist's options: this recipient may be on it. Held rather than let through.
      return { address, kind: 'quarantine', reason: 'blacklist options cut by Rspamd: held to be safe', list: null };
    }
    // The most specific owner decides; a whitelist whose sender is not authenticated is not applied
    // and passes the decision on to the next owner (rspamd.lua sends their entries after it).
    let unproven = null;
    for (const hit of chain) {
      const entry = `list:${hit.id}`;
      const after = unproven ? `; ${unproven.note}` : '';
      if (hit.kind === 'blacklist')
        return { address, kind: 'quarantine', reason: `blacklist ${entry}${after}`, list: hit };
      const proven = hit.matches.map((m) => ({ id: m.id, by: authenticatedBy(m, auth) })).find((m) => m.by);
      if (!proven) {
        unproven ??= { hit, note: `whitelist ${entry} not applied (sender not authenticated)` };
        continue;
      }
      if (base.kind !== 'quarantine') return { address, kind: 'pass', reason: `whitelist ${entry}`, list: hit };
      const held = (why) => ({
        address,
        kind: 'quarantine',
        reason: `${base.reason}; whitelist ${entry} not applied${why}`,
        list: hit,
      });
      if (forced?.action === 'quarantine') return held('');
      if (guards.length) return held(` (${guards.join(', ')})`);
      return {
        address,
        kind: 'pass',
        reason: `whitelist list:${proven.id} (${proven.by}) over ${base.reason}`,
        list: hit,
      };
    }
    if (!unproven) return { address, kind: base.kind, reason: base.reason, list: null };
    return { address, kind: base.kind, reason: `${base.reason}; ${unproven.note}`, list: unproven.hit };
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

module.exports = {
  authenticated,
  authenticatedBy,
  guardSymbols,
  hitFor,
  listHits,
  parseLists,
  recipientPlan,
  DEFAULT_GUARD_SYMBOLS,
};
