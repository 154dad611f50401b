/**
 * Rspamd rule types from @qc/contracts (types only: the contract module loads zod, which the
 * remote does not bundle). The constants are mirrored here; rules.types.test.ts checks them.
 */
import type {
  ApanelAction,
  FilterAction,
  FilterType,
  PatternType,
  RspamdListName,
  SystemRuleAction,
} from '@qc/contracts';

export type {
  ApanelAction,
  ApanelFilter,
  ApanelFilterCreate,
  ApanelFilterUpdate,
  FilterAction,
  FilterType,
  PatternType,
  RspamdFilter,
  RspamdFilterCreate,
  RspamdFilterUpdate,
  RspamdListName,
  RspamdListStatus,
  RspamdStatus,
  RuleBulkRequest,
  RuleBulkResponse,
  SystemRule,
  SystemRuleAction,
  SystemRuleCreate,
  SystemRuleUpdate,
} from '@qc/contracts';

export const FILTER_TYPES = ['domains', 'ips', 'users', 'special'] as const satisfies readonly FilterType[];
export const PATTERN_TYPES = ['exact', 'wildcard', 'regex', 'cidr'] as const satisfies readonly PatternType[];
export const FILTER_PATTERN_TYPES: Record<FilterType, readonly PatternType[]> = {
  domains: ['exact', 'wildcard', 'regex'],
  ips: ['exact', 'cidr', 'wildcard', 'regex'],
  users: ['exact', 'wildcard', 'regex'],
  special: ['exact', 'wildcard', 'regex'],
};
export const FILTER_ACTIONS = [
  'reject',
  'accept',
  'add_header',
  'quarantine',
] as const satisfies readonly FilterAction[];
export const APANEL_ACTIONS = [
  'reject',
  'accept',
  'add_header',
  'discard',
  'quarantine',
] as const satisfies readonly ApanelAction[];
/** Strictest first: the order in which one wins over another (the form's intro says so). */
export const SYSTEM_RULE_ACTIONS = [
  'reject',
  'soft_reject',
  'greylist',
  'add_header',
  'accept',
] as const satisfies readonly SystemRuleAction[];
/** Every action of the three kinds (one label and colour each). */
export type RuleAction = FilterAction | ApanelAction | SystemRuleAction;

export const RSPAMD_LIMITS = {
  value: 512,
  regex: 256,
  description: 500,
  descriptionMin: 3,
  name: 100,
  nameMin: 3,
} as const;

/** The list Rspamd fetches for each family (RSPAMD_LISTS of @qc/contracts). */
export const FILTER_LISTS: Record<FilterType, RspamdListName> = {
  domains: 'filters-domains',
  ips: 'filters-ips',
  users: 'filters-users',
  special: 'filters-special',
};

export const isFilterType = (v: string | undefined): v is FilterType =>
  (FILTER_TYPES as readonly string[]).includes(v ?? '');

/** The console's routes of this remote (spec §2), absolute: the host fixes them. */
export const RSPAMD_PATHS = {
  filters: (type: FilterType) => `/rspamd/${type}`,
  filterCreate: (type: FilterType) => `/rspamd/${type}/create`,
  filterEdit: (type: FilterType, id: string) => `/rspamd/${type}/edit/${encodeURIComponent(id)}`,
  apanel: '/rspamd/apanel-filters',
  apanelCreate: '/rspamd/apanel-filters/create',
  apanelEdit: (id: string) => `/rspamd/apanel-filters/edit/${encodeURIComponent(id)}`,
  system: '/rspamd/system-rules',
  systemCreate: '/rspamd/system-rules/create',
  systemEdit: (id: string) => `/rspamd/system-rules/edit/${encodeURIComponent(id)}`,
};
