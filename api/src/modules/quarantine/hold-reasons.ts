import type { HoldReason, RspamdSymbol } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import type { AuthContext } from '../auth/auth.service';
import { findEntries } from '../lists/lists.repository';
import type { MessageRow } from './quarantine.repository';

/**
 * Why the caller's copy of a message is held (the detail's `hold_reasons`, strongest first), from
 * what was stored at ingest:
 * - `list`: QC_LIST_BLACKLIST's options `<recipient>=list:<id>`, for the recipients the caller
 *   sees. The entry is read for its scope and address; `by_you` when it is the caller's own list.
 *   An entry deleted since is still a reason: `scope` is then `user` when the recipient is the
 *   caller's own address and `global` otherwise (the best guess left), and `address` is '' (unknown).
 * - `rule`: the console rules of the QC_FILTER_/QC_APANEL_/QC_SYSTEM_ symbols whose action is
 *   quarantine (`rules` of withHeldBy: labels for admins only).
 * - `score`: the score reached required_score.
 * - `verdict`: otherwise Rspamd's stored action, unless it is one that holds nothing ("no action",
 *   "add header"...) while a list or rule reason already says why.
 */
const LIST_OPTION = /^(.+)=list:([0-9a-hjkmnp-tv-z]{26})$/i;
const HOLDING_RULE = /^QC_(FILTER|APANEL|SYSTEM)_.*QUARANTINE/;
// Compared with spaces for underscores: the stored action may be either (`add_header`, `add header`).
const NOT_HOLDING = new Set(['no action', 'add header', 'rewrite subject', 'greylist']);

export async function holdReasons(
  db: DbExecutor,
  auth: AuthContext,
  message: Pick<MessageRow, 'score' | 'required_score' | 'action'>,
  symbols: RspamdSymbol[],
  visible: (address: string) => boolean,
): Promise<HoldReason[]> {
  const reasons: HoldReason[] = [];

  const matches: { recipient: string; id: string }[] = [];
  const seen = new Set<string>();
  for (const s of symbols) {
    if (s.symbol !== 'QC_LIST_BLACKLIST') continue;
    for (const option of s.options) {
      const m = LIST_OPTION.exec(option.trim());
      if (!m) continue;
      const recipient = m[1]!.toLowerCase();
      const id = m[2]!.toUpperCase();
      if (!visible(recipient) || seen.has(recipient)) continue;
      seen.add(recipient);
      matches.push({ recipient, id });
    }
  }
  if (matches.length) {
    const entries = new Map((await findEntries(db, [...new Set(matches.map((m) => m.id))])).map((e) => [e.id, e]));
    const me = auth.user;
    for (const { recipient, id } of matches) {
      const entry = entries.get(id);
      reasons.push(
        entry
          ? {
              kind: 'list',
              recipient,
              scope: entry.scope,
              address: entry.address,
              by_you: entry.user_id === me.user_id,
            }
          : {
              kind: 'list',
              recipient,
              scope: recipient === me.email.toLowerCase() ? 'user' : 'global',
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
