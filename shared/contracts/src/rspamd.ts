import { z } from 'zod';
import { CursorParam, emptyAsUndefined, PageSizeParam } from './common';

/**
 * Rspamd rules (DESIGN §4.1, issue 17): admin only. Three kinds, each served to Rspamd as maps
 * (GET /api/rspamd/maps/{name}) and carried out by haraka-plugin-qconsole:
 * - filters, in four families: the sender's domain (`domains`), the client IP (`ips`), the
 *   sender's address (`users`) and `special`: the Subject header;
 * - control-panel (apanel) filters: an envelope sender → recipient pair, owned by the system or a user;
 * - system rules: from, subject, to and ip patterns that must all match.
 */
export const FILTER_TYPES = ['domains', 'ips', 'users', 'special'] as const;
export const FilterType = z.enum(FILTER_TYPES);
export type FilterType = z.infer<typeof FilterType>;

export const PATTERN_TYPES = ['exact', 'wildcard', 'regex', 'cidr'] as const;
export const PatternType = z.enum(PATTERN_TYPES);
export type PatternType = z.infer<typeof PatternType>;
/** The pattern types each family accepts (cidr is for IPs only). */
export const FILTER_PATTERN_TYPES: Record<FilterType, readonly PatternType[]> = {
  domains: ['exact', 'wildcard', 'regex'],
  ips: ['exact', 'cidr', 'wildcard', 'regex'],
  users: ['exact', 'wildcard', 'regex'],
  special: ['exact', 'wildcard', 'regex'],
};

export const FILTER_ACTIONS = ['reject', 'accept', 'add_header', 'quarantine'] as const;
export const FilterAction = z.enum(FILTER_ACTIONS);
export type FilterAction = z.infer<typeof FilterAction>;
export const APANEL_ACTIONS = ['reject', 'accept', 'add_header', 'discard', 'quarantine'] as const;
export const ApanelAction = z.enum(APANEL_ACTIONS);
export type ApanelAction = z.infer<typeof ApanelAction>;
/** Strictest first: when several rules match, the first of these wins (mailstack's rspamd.lua). */
export const SYSTEM_RULE_ACTIONS = ['reject', 'soft_reject', 'greylist', 'add_header', 'accept'] as const;
export const SystemRuleAction = z.enum(SYSTEM_RULE_ACTIONS);
export type SystemRuleAction = z.infer<typeof SystemRuleAction>;

/** Limits (characters) checked by the api; a regex is also refused when it could backtrack catastrophically. */
export const RSPAMD_LIMITS = { value: 512, regex: 256, description: 500, descriptionMin: 3, name: 100, nameMin: 3 };

/** Who created a rule (null once that account is deleted; the e-mail stays as it was). */
export const RuleActor = z.object({ id: z.string().nullable(), email: z.string() }).nullable();

export const RspamdFilter = z.object({
  id: z.string(),
  type: FilterType,
  /** As stored and served to Rspamd: domains IDNA A-labels lower case, addresses lower case, IPs canonical. */
  value: z.string(),
  pattern_type: PatternType,
  action: FilterAction,
  description: z.string(),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: RuleActor,
});
export type RspamdFilter = z.infer<typeof RspamdFilter>;
export const RspamdFilterList = z.object({ results: z.array(RspamdFilter), next_cursor: z.string().nullable() });
export type RspamdFilterList = z.infer<typeof RspamdFilterList>;

const Description = z
  .string({ error: 'Description is required' })
  .trim()
  .min(RSPAMD_LIMITS.descriptionMin, 'Description is too short')
  .max(RSPAMD_LIMITS.description, `At most ${RSPAMD_LIMITS.description} characters`);
const Pattern = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(RSPAMD_LIMITS.value, `At most ${RSPAMD_LIMITS.value} characters`);

/** POST /api/rspamd/filters/{type}/ (`?dry_run=true`: validated and normalised, nothing saved). */
export const RspamdFilterCreate = z
  .object({
    value: Pattern('Pattern is required'),
    pattern_type: PatternType,
    action: z.enum(FILTER_ACTIONS, { error: 'Action is required' }),
    description: Description,
    enabled: z.boolean().optional(),
  })
  .strict();
export type RspamdFilterCreate = z.infer<typeof RspamdFilterCreate>;
/** PATCH /api/rspamd/filters/{type}/{id}/ */
export const RspamdFilterUpdate = RspamdFilterCreate.partial().strict();
export type RspamdFilterUpdate = z.infer<typeof RspamdFilterUpdate>;

const BoolParam = z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional());
const SearchParam = z.preprocess(emptyAsUndefined, z.string().trim().max(RSPAMD_LIMITS.value).optional());

/** GET /api/rspamd/filters/{type}/: newest first; `q` is a part of the value or description. */
export const RspamdFilterListQuery = z
  .object({
    q: SearchParam,
    action: z.preprocess(emptyAsUndefined, FilterAction.optional()),
    pattern_type: z.preprocess(emptyAsUndefined, PatternType.optional()),
    enabled: BoolParam,
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .strict();
export type RspamdFilterListQuery = z.infer<typeof RspamdFilterListQuery>;

export const ApanelFilter = z.object({
  id: z.string(),
  enabled: z.boolean(),
  /** null: a system filter (any recipient `to` matches); a user: it applies to mail to their address. */
  owner: z.object({ id: z.string(), email: z.string() }).nullable(),
  /** Envelope sender pattern: an address, `@domain`, or `*` / `?` wildcards; lower case. */
  from: z.string(),
  /** Envelope recipient pattern, same syntax; a user's filter is for their own address. */
  to: z.string(),
  action: ApanelAction,
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: RuleActor,
});
export type ApanelFilter = z.infer<typeof ApanelFilter>;
export const ApanelFilterList = z.object({ results: z.array(ApanelFilter), next_cursor: z.string().nullable() });
export type ApanelFilterList = z.infer<typeof ApanelFilterList>;

export const ApanelFilterCreate = z
  .object({
    enabled: z.boolean().optional(),
    owner_id: z.string().max(64).nullable().optional(),
    from: Pattern('Pattern is required'),
    /** Required for a system filter; for a user's filter empty, `*` or left out means their address. */
    to: z.string().trim().max(RSPAMD_LIMITS.value, `At most ${RSPAMD_LIMITS.value} characters`).optional(),
    action: z.enum(APANEL_ACTIONS, { error: 'Action is required' }),
    description: Description,
  })
  .strict();
export type ApanelFilterCreate = z.infer<typeof ApanelFilterCreate>;
export const ApanelFilterUpdate = ApanelFilterCreate.partial().strict();
export type ApanelFilterUpdate = z.infer<typeof ApanelFilterUpdate>;

/** GET /api/rspamd/apanel-filters/: `owner` is `system` or a user id. */
export const ApanelFilterListQuery = z
  .object({
    q: SearchParam,
    action: z.preprocess(emptyAsUndefined, ApanelAction.optional()),
    enabled: BoolParam,
    owner: z.preprocess(emptyAsUndefined, z.string().max(64).optional()),
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .strict();
export type ApanelFilterListQuery = z.infer<typeof ApanelFilterListQuery>;

/**
 * A system rule: every pattern given must match. from/to: envelope addresses (address, `@domain`,
 * wildcards or `/regex/flags`); subject: text with wildcards, or `/regex/flags`; ip: an IP or CIDR.
 * When several rules match, the strictest action wins (reject, soft_reject, greylist, add_header, accept).
 */
export const SystemRule = z.object({
  id: z.string(),
  name: z.string(),
  from: z.string().nullable(),
  subject: z.string().nullable(),
  to: z.string().nullable(),
  ip: z.string().nullable(),
  action: SystemRuleAction,
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The owner: who created it. */
  created_by: RuleActor,
});
export type SystemRule = z.infer<typeof SystemRule>;
export const SystemRuleList = z.object({ results: z.array(SystemRule), next_cursor: z.string().nullable() });
export type SystemRuleList = z.infer<typeof SystemRuleList>;

const OptionalPattern = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z.string().trim().max(RSPAMD_LIMITS.value, `At most ${RSPAMD_LIMITS.value} characters`).nullable().optional(),
);
export const SystemRuleCreate = z
  .object({
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(RSPAMD_LIMITS.nameMin, 'Name is too short')
      .max(RSPAMD_LIMITS.name, `At most ${RSPAMD_LIMITS.name} characters`),
    from: OptionalPattern,
    subject: OptionalPattern,
    to: OptionalPattern,
    ip: OptionalPattern,
    action: z.enum(SYSTEM_RULE_ACTIONS, { error: 'Action is required' }),
    enabled: z.boolean().optional(),
  })
  .strict();
export type SystemRuleCreate = z.infer<typeof SystemRuleCreate>;
export const SystemRuleUpdate = SystemRuleCreate.partial().strict();
export type SystemRuleUpdate = z.infer<typeof SystemRuleUpdate>;

export const SystemRuleListQuery = z
  .object({
    q: SearchParam,
    action: z.preprocess(emptyAsUndefined, SystemRuleAction.optional()),
    enabled: BoolParam,
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .strict();
export type SystemRuleListQuery = z.infer<typeof SystemRuleListQuery>;

/** POST …/bulk/ of each kind: the same change on each id (≤ 200). */
export const RULE_BULK_ACTIONS = ['delete', 'enable', 'disable'] as const;
export const RuleBulkRequest = z
  .object({
    ids: z.array(z.string().min(1).max(64)).min(1).max(200),
    action: z.enum(RULE_BULK_ACTIONS),
  })
  .strict();
export type RuleBulkRequest = z.infer<typeof RuleBulkRequest>;
/** One result per distinct id, in order: `ok`, or `not_found` (unknown, or not of that family). */
export const RuleBulkResponse = z.object({
  results: z.array(z.object({ id: z.string(), status: z.enum(['ok', 'not_found']) })),
});
export type RuleBulkResponse = z.infer<typeof RuleBulkResponse>;

/** The lists Rspamd fetches: one per filter family, the apanel filters and the system rules. */
export const RSPAMD_LISTS = [
  'filters-domains',
  'filters-ips',
  'filters-users',
  'filters-special',
  'apanel-filters',
  'system-rules',
  // Issue 18: the whitelists and blacklists of every owner (shared/contracts/src/lists.ts).
  'sender-lists',
] as const;
export const RspamdListName = z.enum(RSPAMD_LISTS);
export type RspamdListName = z.infer<typeof RspamdListName>;

/**
 * GET /api/rspamd/status/: per list, when it last changed, when Rspamd last fetched one of its maps,
 * and whether every map of it has been fetched since the last change (the change is live).
 */
export const RspamdListStatus = z.object({
  list: RspamdListName,
  entries: z.number().int(),
  changed_at: z.string().nullable(),
  fetched_at: z.string().nullable(),
  live: z.boolean(),
});
export type RspamdListStatus = z.infer<typeof RspamdListStatus>;
export const RspamdStatus = z.object({ lists: z.array(RspamdListStatus) });
export type RspamdStatus = z.infer<typeof RspamdStatus>;
