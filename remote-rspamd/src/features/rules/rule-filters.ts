import type { RuleListParams } from './rules.api';

/**
 * A rule list's filters, kept in the URL query string (q, action, pattern_type, enabled, owner,
 * cursor); '' = any. Each kind says which it offers and their values (`RuleFilterSpec`).
 */
export interface RuleFilters {
  q: string;
  action: string;
  pattern_type: string;
  enabled: '' | 'true' | 'false';
  /** Control-panel filters: `system` or a user id. */
  owner: string;
  cursor: string | null;
}

export interface RuleFilterSpec {
  actions: readonly string[];
  /** The pattern types offered (filters only). */
  patternTypes?: readonly string[];
  /** An owner filter (control-panel filters). */
  owner?: boolean;
}

export const NO_RULE_FILTERS: Readonly<RuleFilters> = Object.freeze({
  q: '',
  action: '',
  pattern_type: '',
  enabled: '',
  owner: '',
  cursor: null,
});

/** Anything the list does not offer, or not valid, falls back to "any". */
export function readRuleFilters(params: URLSearchParams, spec: RuleFilterSpec): RuleFilters {
  const get = (name: string) => params.get(name)?.trim() ?? '';
  const enabled = get('enabled');
  return {
    q: get('q').slice(0, 200),
    action: spec.actions.includes(get('action')) ? get('action') : '',
    pattern_type: spec.patternTypes?.includes(get('pattern_type')) ? get('pattern_type') : '',
    enabled: enabled === 'true' || enabled === 'false' ? enabled : '',
    owner: spec.owner ? get('owner').slice(0, 64) : '',
    cursor: get('cursor') || null,
  };
}

export function writeRuleFilters(f: RuleFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of ['q', 'action', 'pattern_type', 'enabled', 'owner', 'cursor'] as const) {
    const value = f[name];
    if (value) params.set(name, value);
  }
  return params;
}

/** True when something narrows the list (the empty state then says "no match"). */
export const isFiltered = (f: RuleFilters) => Boolean(f.q || f.action || f.pattern_type || f.enabled || f.owner);

export function toRuleListQuery(f: RuleFilters, pageSize: number): RuleListParams {
  return {
    page_size: String(pageSize),
    ...(f.q ? { q: f.q } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.pattern_type ? { pattern_type: f.pattern_type } : {}),
    ...(f.enabled ? { enabled: f.enabled } : {}),
    ...(f.owner ? { owner: f.owner } : {}),
    ...(f.cursor ? { cursor: f.cursor } : {}),
  };
}
