import type { HeldByRule, RspamdSymbol } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import { findApanelsByIds } from './apanel.repository';
import { findFiltersAnyType } from './filters.repository';
import { findSystemRulesByIds } from './system-rules.repository';

/**
 * "Held by filter X" in the e-mail detail. Each map line served to Rspamd ends with its entry's
 * token and the multimap rules run with `disable_multisymbol`, so the symbol's options name the
 * rule that matched: `filter:<id>`, `apanel:<id>` or `system:<id>` (ids are ULIDs).
 */
const TOKEN = /^(filter|apanel|system):([0-9a-hjkmnp-tv-z]{26})$/i;
/** Only the console's own symbols: other symbols' options may carry text the sender wrote (HELO, From). */
const QC_SYMBOL = /^QC_(FILTER|APANEL|SYSTEM)_/;

type Kind = HeldByRule['kind'];

function tokensOf(symbol: RspamdSymbol): { token: string; kind: Kind; id: string }[] {
  const seen = new Set<string>();
  const found: { token: string; kind: Kind; id: string }[] = [];
  if (!QC_SYMBOL.test(symbol.symbol)) return found;
  for (const option of symbol.options) {
    const m = TOKEN.exec(option.trim());
    if (!m) continue;
    const kind = m[1]!.toLowerCase() as Kind;
    const id = m[2]!.toUpperCase();
    if (seen.has(`${kind}:${id}`)) continue;
    seen.add(`${kind}:${id}`);
    found.push({ token: m[0], kind, id });
  }
  return found;
}

/**
 * The symbols with `rules` added where an option names a console rule. Labels and actions are
 * given to admins only: other roles may read their mail, not the rules (admin-only routes).
 */
export async function withHeldBy(db: DbExecutor, symbols: RspamdSymbol[], isAdmin: boolean): Promise<RspamdSymbol[]> {
  const perSymbol = symbols.map(tokensOf);
  const ids = { filter: new Set<string>(), apanel: new Set<string>(), system: new Set<string>() };
  for (const tokens of perSymbol) for (const t of tokens) ids[t.kind].add(t.id);
  if (!ids.filter.size && !ids.apanel.size && !ids.system.size) return symbols;
  const [filters, apanels, systems] = await Promise.all([
    findFiltersAnyType(db, [...ids.filter]),
    findApanelsByIds(db, [...ids.apanel]),
    findSystemRulesByIds(db, [...ids.system]),
  ]);
  const known = new Map<string, { label: string; action: string }>();
  for (const f of filters) known.set(`filter:${f.id}`, { label: f.value, action: f.action });
  for (const a of apanels)
    known.set(`apanel:${a.id}`, { label: `${a.from_pattern} → ${a.to_pattern}`, action: a.action });
  for (const r of systems) known.set(`system:${r.id}`, { label: r.name, action: r.action });
  return symbols.map((symbol, i) => {
    const tokens = perSymbol[i]!;
    if (!tokens.length) return symbol;
    const rules = tokens.map(({ token, kind, id }): HeldByRule => {
      const rule = known.get(`${kind}:${id}`);
      return {
        token,
        kind,
        id,
        exists: rule !== undefined,
        label: rule && isAdmin ? rule.label : null,
        action: rule && isAdmin ? rule.action : null,
      };
    });
    return { ...symbol, rules };
  });
}
