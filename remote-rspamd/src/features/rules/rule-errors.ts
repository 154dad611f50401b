import { errorMessageKey, readApiError } from '@qc/api-client';
import type { TFunction } from 'i18next';

type T = TFunction<'rspamd'>;

/**
 * The api's field messages (`errors.<field>`, English) in the page's language: those of the
 * contract (spec §5: action required, pattern required, description too short…) and the usual
 * pattern refusals of its checks (api/src/modules/rspamd: patterns, ip-patterns, regex-*). Another
 * one is shown as the api wrote it, after a translated "invalid pattern" (it alone says why).
 */
const KNOWN: [RegExp, string, (m: RegExpMatchArray) => Record<string, string>][] = [
  [/^Pattern is required\.?$/i, 'errors.pattern_required', () => ({})],
  [/^Action is required\.?$/i, 'errors.action_required', () => ({})],
  [/^Description is required\.?$/i, 'errors.description_required', () => ({})],
  [/^Description is too short\.?$/i, 'errors.description_too_short', () => ({})],
  [/^Name is required\.?$/i, 'errors.name_required', () => ({})],
  [/^Name is too short\.?$/i, 'errors.name_too_short', () => ({})],
  [/^At most (\d+) characters\.?$/i, 'errors.too_long', (m) => ({ max: m[1]! })],
  [/^Invalid option/i, 'errors.invalid_choice', () => ({})],
  [/^This regex can backtrack catastrophically/, 'errors.api.backtrack', () => ({})],
  [/^This regex is too complex to check/, 'errors.api.too_complex', () => ({})],
  [/^Backreferences \((\\[^)]*)\) are not supported/, 'errors.api.backreference', (m) => ({ ref: m[1]! })],
  [
    /^(?:Negative )?[Ll]ook(?:ahead|behind) (\(\?[^)]*\)) is not supported/,
    'errors.api.lookaround',
    (m) => ({ group: m[1]! }),
  ],
  [/^Inline flags like \(\?i\) are not supported/, 'errors.api.inline_flags', () => ({})],
  [/^Unknown regex flag "(.+)"/, 'errors.api.regex_flag', (m) => ({ flag: m[1]! })],
  [/^The regex does not compile: (.*)$/, 'errors.api.regex_compile', (m) => ({ reason: m[1]! })],
  [
    /^Leading zeros are not allowed in an IPv4 address \("(.+)" in (.+)\)$/,
    'errors.api.leading_zeros',
    (m) => ({ part: m[1]!, ip: m[2]! }),
  ],
  [
    /^Host bits are set: the network is (\S+) \(or write the single address (\S+)\)$/,
    'errors.api.host_bits',
    (m) => ({ network: m[1]!, ip: m[2]! }),
  ],
  [
    /^The prefix length of an IPv(\d) network is 0 to (\d+) \(\/(.*) is not\)$/,
    'errors.api.prefix_range',
    (m) => ({ version: m[1]!, max: m[2]!, prefix: m[3]! }),
  ],
  [/^An IPv4 address has 4 numbers/, 'errors.api.ipv4_parts', () => ({})],
  [/^(.+) is not a valid IPv6 address$/, 'errors.api.ipv6_invalid', (m) => ({ ip: m[1]! })],
  [/^Only \* and \? are wildcards: "(.+?)" is not allowed/, 'errors.api.wildcard_chars', (m) => ({ char: m[1]! })],
  [/^\* and \? are wildcards: choose the wildcard pattern type$/, 'errors.api.choose_wildcard', () => ({})],
  [/^Not a valid domain name$/, 'errors.api.domain_invalid', () => ({})],
  [/^A domain has at least two labels/, 'errors.api.domain_labels', () => ({})],
  [/^A domain has no @/, 'errors.api.domain_at', () => ({})],
  [/^An address has the form name@domain$/, 'errors.api.address_form', () => ({})],
  [/^No active user has this id$/, 'errors.api.owner_unknown', () => ({})],
  [/^This pattern matches all mail: narrow it$/, 'errors.api.catch_all', () => ({})],
  [/^These patterns match all mail: narrow one$/, 'errors.api.catch_all_patterns', () => ({})],
  [/^This filter matches all mail: narrow the sender or the recipient$/, 'errors.api.catch_all_pair', () => ({})],
  [/^"\/" cannot start an address pattern$/, 'errors.api.slash_start', () => ({})],
  [/^"#" cannot be used in a filter address/, 'errors.api.hash_in_address', () => ({})],
];

export function fieldMessage(message: string, t: T): string {
  for (const [pattern, key, params] of KNOWN) {
    const m = pattern.exec(message);
    if (m) return t(key, params(m));
  }
  return t('errors.refused', { reason: message });
}

/**
 * A 409 names the rule already there (`#<id> <value> (<action>, "<description>")`, English words
 * around it): the rule is kept as written, the words around it translated.
 */
export function conflictMessage(code: string, detail: string, t: T): string {
  const m = /: (#.*?)\.(?: It cannot be both (\S+) and (\S+):.*)?$/s.exec(detail);
  if (!m) return t('errors.conflict', { detail });
  if (code === 'filter_exists') return t('errors.exists', { rule: m[1]! });
  const action = (a: string | undefined) => (a ? t(`actions.${a}.label`, { defaultValue: a }) : '');
  return t('errors.conflict_action', { rule: m[1]!, theirs: action(m[2]), ours: action(m[3]) });
}

/** The translated text of a failed call, for a notice: by the api's status (its `detail` is English). */
export function ruleErrorText(error: unknown, t: T): string {
  const { status, code, detail } = readApiError(error);
  if (status === 404) return t('errors.not_found');
  if (status === 409) return conflictMessage(code, detail, t);
  return t(errorMessageKey(error), { ns: 'common' });
}

export interface Refusal<F extends string> {
  /** The fields shown, each with its translated message. */
  fields: Partial<Record<F, string>>;
  /** What to say above the form: a refusal not about a field shown, or a failure (null: none). */
  message: string | null;
}

/**
 * The api's refusal of a rule (400 with `errors`, 409 naming the rule in conflict) as messages on
 * the form's fields; what no field says goes above the form. A 409 (a duplicate, or an
 * accept-vs-reject conflict on the same value) is said once, under the first field it names or
 * `conflictField`.
 */
export function refusalOf<F extends string>(
  error: unknown,
  t: T,
  shown: readonly F[],
  conflictField: F,
  /** A live check sent a stand-in action: a 409 then says only that the value is taken. */
  { actionUnknown = false }: { actionUnknown?: boolean } = {},
): Refusal<F> {
  const info = readApiError(error);
  const isShown = (field: string): field is F => (shown as readonly string[]).includes(field);
  const fields: Partial<Record<F, string>> = {};
  if (info.status === 409) {
    const named = Object.keys(info.errors ?? {}).find(isShown) ?? conflictField;
    fields[named] = conflictMessage(actionUnknown ? 'filter_exists' : info.code, info.detail, t);
    return { fields, message: null };
  }
  const elsewhere: string[] = [];
  for (const [field, message] of Object.entries(info.errors ?? {})) {
    if (isShown(field)) fields[field] = fieldMessage(message, t);
    // Other names (an unknown field, `cursor`) have no field of their own.
    else elsewhere.push(fieldMessage(message, t));
  }
  if (elsewhere.length) return { fields, message: elsewhere.join(' ') };
  if (Object.keys(fields).length) return { fields, message: null };
  return { fields, message: ruleErrorText(error, t) };
}

/** True for a refusal of the values (400, 409), as opposed to a failure to check them. */
export const isRefusal = (error: unknown) => [400, 409, 422].includes(readApiError(error).status);
