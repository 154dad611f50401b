import type { HoldReason, RspamdSymbol } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import type { AuthContext } from '../auth/auth.service';
import { findEntries } from '../lists/lists.repository';
import type { EntryView } from '../lists/lists.repository';
import type { MessageRow } from './quarantine.repository';
import type { Scope } from './quarantine-scope';

/**
 * Why the caller's copy of a message is held (the detail's `hold_reasons`, strongest first), from
 * what was stored at ingest:
 * - `list`: QC_LIST_WHITELIST / QC_LIST_BLACKLIST carry options `<owner key>=list:<id>`, the key
 *   being the owner of the entry Rspamd chose: a recipient address, `@<recipient domain>` or `*`
 *   (mails stored before that carry recipient addresses only); a whitelist option may end with what
 *   its entry matched (`:env`, `:from:<domain>`, issue 29). For each recipient the caller sees,
 *   the entry that applied is the option keyed by its address (a blacklist winning if both), else
 *   `@<its domain>`, else `*`; a blacklist is a reason. The entry is read for its scope and address;
 *   `by_you` when it is the caller's own list. An entry deleted since is still a reason: its scope
 *   is then told by the key's form, and `address` is '' (unknown). A domain_admin does not read the
 *   address of an entry on a list they may not manage (an admin's or another domain_admin's own).
 * - `rule`: the console rules of the QC_FILTER_/QC_APANEL_/QC_SYSTEM_ symbols whose action is
 *   quarantine (`rules` of withHeldBy: labels for admins only).
 * - `score`: the score reached required_score.
 * - `verdict`: otherwise Rspamd's stored action, unless it is one that holds nothing ("no action",
 *   "add header"...) while a list or rule reason already says why.
 */
const LIST_OPTION = /^(.+)=list:([0-9a-hjkmnp-tv-z]{26})(?::env)?(?::from:[^\s:]+)?$/i;
const LIST_SYMBOLS: Record<string, 'whitelist' | 'blacklist'> = {
  QC_LIST_WHITELIST: 'whitelist',
  QC_LIST_BLACKLIST: 'blacklist',
};
const HOLDING_RULE = /^QC_(FILTER|APANEL|SYSTEM)_.*QUARANTINE/;
// Compared with spaces for underscores: the stored action may be either (`add_header`, `add header`).
const NOT_HOLDING = new Set(['no action', 'add header', 'rewrite subject', 'greylist']);

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** A list option's owner key (lower case) and entry id, or null when it is not one. */
function parseListOption(option: string): { key: string; id: string } | null {
  const m = LIST_OPTION.exec(option.trim());
  return m ? { key: m[1]!.toLowerCase(), id: m[2]!.toUpperCase() } : null;
}

/**
 * Whether a list option's owner key is one the caller may read: a recipient they see, `@` the
 * domain of such a recipient, or `*`. Any other key names another recipient (a Bcc maybe) or
 * their domain, and which of their lists matched.
 */
export function listKeyVisible(scope: Scope, key: string): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'domain':
      return key === '*' || key === `@${scope.domain}` || key.endsWith(`@${scope.domain}`);
    case 'recipient':
      return key === '*' || scope.addresses.some((a) => key === a || key === `@${domainOf(a)}`);
  }
}

/** The symbols with only the QC_LIST_* options the caller may read (listKeyVisible). */
export function visibleListOptions(symbols: RspamdSymbol[], scope: Scope): RspamdSymbol[] {
  if (scope.kind === 'all') return symbols;
  return symbols.map((s) =>
    LIST_SYMBOLS[s.symbol]
      ? {
          ...s,
          options: s.options.filter((o) => {
            const parsed = parseListOption(o);
            return parsed !== null && listKeyVisible(scope, parsed.key);
          }),
        }
      : s,
  );
}

/** The list option that applied to each recipient (address, else `@domain`, else `*`). */
function appliedOptions(
  symbols: RspamdSymbol[],
  recipients: string[],
): { recipient: string; key: string; kind: 'whitelist' | 'blacklist'; id: string }[] {
  const byKey = new Map<string, { kind: 'whitelist' | 'blacklist'; id: string }>();
  for (const s of symbols) {
    const kind = LIST_SYMBOLS[s.symbol];
    if (!kind) continue;
    for (const option of s.options) {
      const parsed = parseListOption(option);
      // The same key on both symbols cannot happen (one entry per owner and recipient); if it did,
      // the blacklist holds the mail.
      if (parsed && !(byKey.get(parsed.key)?.kind === 'blacklist')) byKey.set(parsed.key, { kind, id: parsed.id });
    }
  }
  if (!byKey.size) return [];
  const applied = [];
  for (const recipient of new Set(recipients.map((r) => r.toLowerCase()))) {
    // The most specific owner's entry, unless it is a whitelist followed by a broader owner's
    // blacklist: rspamd.lua sends those for Haraka to fall back on when the whitelist is not
    // applied (an unauthenticated sender, issue 29), and a held copy is then held by the blacklist.
    const keys = [recipient, `@${domainOf(recipient)}`, '*'].filter((k) => byKey.has(k));
    const key = keys.find((k) => byKey.get(k)!.kind === 'blacklist') ?? keys[0];
    if (key) applied.push({ recipient, key, ...byKey.get(key)! });
  }
  return applied;
}

/** Whether a domain_admin may manage the list of this entry (its address is then theirs to read). */
function manages(auth: AuthContext, e: EntryView): boolean {
  const me = auth.user;
  if (me.role !== 'domain_admin') return true;
  if (e.scope !== 'user') return true; // their domain's list, or the global one that applies to it
  return e.user_id === me.user_id || (e.user_role === 'user' && !!me.domain_id && e.user_domain_id === me.domain_id);
}

export async function holdReasons(
  db: DbExecutor,
  auth: AuthContext,
  message: Pick<MessageRow, 'score' | 'required_score' | 'action'>,
  symbols: RspamdSymbol[],
  recipients: string[],
): Promise<HoldReason[]> {
  const reasons: HoldReason[] = [];

  const matches = appliedOptions(symbols, recipients).filter((m) => m.kind === 'blacklist');
  if (matches.length) {
    const entries = new Map((await findEntries(db, [...new Set(matches.map((m) => m.id))])).map((e) => [e.id, e]));
    for (const { recipient, key, id } of matches) {
      const entry = entries.get(id);
      reasons.push(
        entry
          ? {
              kind: 'list',
              recipient,
              scope: entry.scope,
              address: manages(auth, entry) ? entry.address : '',
              by_you: entry.user_id === auth.user.user_id,
            }
          : {
              kind: 'list',
              recipient,
              scope: key === '*' ? 'global' : key.startsWith('@') ? 'domain' : 'user',
              address: '',
              by_you: false,
            },
      );
    }
  }

  const tokens = new Set<string>();
  for (const s of symbols) {
    if (!HOLDING_RULE.test(s.symbol)) continue;
    for (const rule of s.rules ?? []) {
      if (tokens.has(rule.token)) continue;
      tokens.add(rule.token);
      reasons.push({ kind: 'rule', token: rule.token, label: rule.label });
    }
  }

  const score = message.score === null ? null : Number(message.score);
  const required = message.required_score === null ? null : Number(message.required_score);
  if (score !== null && required !== null && score >= required) {
    reasons.push({ kind: 'score', score, required_score: required });
  } else if (!reasons.length || !NOT_HOLDING.has(message.action.toLowerCase().replace(/_/g, ' '))) {
    reasons.push({ kind: 'verdict', action: message.action });
  }
  return reasons;
}
