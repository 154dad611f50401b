'use strict';
// Actions forced by the console's rules, read from haraka-plugin-rspamd's verdict. Pure.
//
// A rule of the console (a filter, a control-panel filter, a system rule) that matches inserts a
// symbol QC_FILTER_<FAMILY>_<ACTION>_<KIND>, QC_APANEL_<ACTION> or QC_SYSTEM_<ACTION> whose options
// carry the rule's token (filter:<id>, apanel:<id>, system:<id>), and forces Rspamd's action.
// haraka-plugin-rspamd acts only on "reject" (off here: [reject] spam = false) and "soft reject";
// this plugin carries out the rest. A QC symbol counts only when its action is the verdict's: a rule
// whose action lost to another forced one (the first set wins in Rspamd) decides nothing.

const QC_SYMBOL =
  /^QC_(FILTER|APANEL|SYSTEM)_(?:(DOMAINS|IPS|USERS|SPECIAL)_)?(REJECT|ACCEPT|ADD_HEADER|QUARANTINE|DISCARD|GREYLIST|SOFT_REJECT)(?:_(EXACT|REGEX|RADIX))?$/;
const TOKEN = /^(filter|apanel|system):[A-Za-z0-9_-]{1,64}$/;

/** The console's action (as its rules name it) → Rspamd's action as the verdict shows it. */
const RSPAMD_ACTION = {
  reject: 'reject',
  accept: 'no action',
  add_header: 'add header',
  quarantine: 'quarantine',
  discard: 'discard',
  greylist: 'greylist',
  soft_reject: 'soft reject',
};

/** The parts of a QC_ symbol name, or null for any other symbol. */
function parseSymbol(name) {
  const m = QC_SYMBOL.exec(String(name));
  if (!m) return null;
  return { kind: m[1].toLowerCase(), family: m[2]?.toLowerCase() ?? null, action: m[3].toLowerCase() };
}

function options(sym) {
  if (!sym || typeof sym !== 'object') return [];
  const o = sym.options;
  return Array.isArray(o) ? o.map(String) : o === undefined || o === null ? [] : [String(o)];
}

/** Rspamd's smtp_message: an object ({smtp_message}) or haraka-plugin-rspamd's "smtp_message : text". */
function smtpMessage(messages) {
  if (messages && typeof messages === 'object') return String(messages.smtp_message ?? '').trim();
  const m = /(?:^|,)smtp_message : ([^,]*)/.exec(String(messages ?? ''));
  return m ? m[1].trim() : '';
}

/**
 * The action a console rule forced on this verdict, or null.
 * @returns {null | {action: string, tokens: string[], symbols: string[], message: string}}
 */
function forcedAction(verdict) {
  const action = typeof verdict?.action === 'string' ? verdict.action.toLowerCase() : '';
  const symbols = verdict?.symbols && typeof verdict.symbols === 'object' ? verdict.symbols : {};
  let found = null;
  for (const [key, sym] of Object.entries(symbols)) {
    const name = sym && typeof sym === 'object' && typeof sym.name === 'string' ? sym.name : key;
    const parsed = parseSymbol(name);
    if (!parsed || RSPAMD_ACTION[parsed.action] !== action) continue;
    found ??= { action: parsed.action, tokens: [], symbols: [], message: smtpMessage(verdict.messages) };
    found.symbols.push(name);
    for (const o of options(sym)) if (TOKEN.test(o) && !found.tokens.includes(o)) found.tokens.push(o);
  }
  return found;
}

/** "filter:01J…, apanel:01K…" for replies and log lines ("the rule" when no token came along). */
const ruleNames = (forced) => (forced.tokens.length ? forced.tokens.join(', ') : 'a console rule');

/**
 * What the queue hook does with a forced action (null: no forced action, the score decides). Reject,
 * soft reject and a greylist not yet waited out were answered at data_post and never get here.
 * @returns {null | {kind: 'quarantine'|'pass'|'discard', reason: string}}
 */
function queueDecision(forced) {
  if (!forced) return null;
  const reason = `${forced.action} by ${ruleNames(forced)}`;
  if (forced.action === 'quarantine') return { kind: 'quarantine', reason };
  if (forced.action === 'discard') return { kind: 'discard', reason };
  if (['accept', 'add_header', 'greylist'].includes(forced.action)) return { kind: 'pass', reason };
  return null;
}

module.exports = { forcedAction, parseSymbol, queueDecision, ruleNames, RSPAMD_ACTION, QC_SYMBOL };
