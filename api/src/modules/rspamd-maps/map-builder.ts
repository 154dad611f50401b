import { domainToASCII } from 'node:url';
import { FILTER_ACTIONS, FILTER_TYPES, type FilterAction, type FilterType, type RspamdListName } from '@qc/contracts';

/**
 * The maps Rspamd fetches from the console (mailstack/rspamd/local.d/multimap.conf and rspamd.lua
 * name the same URLs: map-builder.test.ts keeps them equal). Pure: rows in, map bodies out.
 *
 * Filters: one plain-text multimap map per family × kind × action, each line `<key> filter:<id>`
 * (the rule's token: with `disable_multisymbol` it lands in the symbol's options):
 * - `exact` (hash): domains (type from, filter email:domain) and users (email:addr);
 * - `radix`: ips, exact and CIDR (a `192.0.2.*` wildcard is stored as 192.0.2.0/24);
 * - `regex`: every other pattern as an anchored regex (`/source/flags`). Wildcards are regexes too,
 *   not `glob = true` maps: Rspamd 3.4's glob maps match case-sensitively (`X@Bad.Example` would
 *   slip through a `*@bad.example` glob), a regex with the `i` flag does not.
 * Control-panel filters, system rules and the senders' whitelists/blacklists: one JSON map each,
 * read by local.d/rspamd.lua.
 */

export type FilterMapKind = 'exact' | 'radix' | 'regex';
export const FILTER_MAP_KINDS: Record<FilterType, readonly FilterMapKind[]> = {
  domains: ['exact', 'regex'],
  users: ['exact', 'regex'],
  ips: ['radix', 'regex'],
  special: ['regex'],
};

export interface MapSpec {
  name: string;
  list: RspamdListName;
  format: 'text' | 'json';
}

/** `filters-domains-exact-reject`, … */
export const filterMapName = (type: FilterType, kind: FilterMapKind, action: FilterAction) =>
  `filters-${type}-${kind}-${action}`;

export const APANEL_MAP = 'apanel-filters.json';
export const SYSTEM_MAP = 'system-rules.json';
export const SENDER_LISTS_MAP = 'sender-lists.json';

export const RSPAMD_MAPS: readonly MapSpec[] = [
  ...FILTER_TYPES.flatMap((type) =>
    FILTER_MAP_KINDS[type].flatMap((kind) =>
      FILTER_ACTIONS.map((action): MapSpec => ({
        name: filterMapName(type, kind, action),
        list: `filters-${type}`,
        format: 'text',
      })),
    ),
  ),
  { name: APANEL_MAP, list: 'apanel-filters', format: 'json' },
  { name: SYSTEM_MAP, list: 'system-rules', format: 'json' },
  { name: SENDER_LISTS_MAP, list: 'sender-lists', format: 'json' },
];

const BY_NAME = new Map(RSPAMD_MAPS.map((m) => [m.name, m]));
export const findMap = (name: string): MapSpec | undefined => BY_NAME.get(name);

/** The maps of one list: the change of a list is live once Rspamd has fetched every one of them. */
export const mapsOfList = (list: RspamdListName): string[] =>
  RSPAMD_MAPS.filter((m) => m.list === list).map((m) => m.name);

/** The first line of every map: a map is never empty (Rspamd takes an empty body for an error). */
export const headerLine = (map: string, version: number) => `# qconsole ${map} version ${version}`;

// ---------------------------------------------------------------------------------------------
// Regexes

const META = /[\\^$.*+?()[\]{}|/]/g;
const escapeRegex = (text: string) => text.replace(META, '\\$&');
const hasNonAscii = (text: string) => /[^\x00-\x7f]/.test(text);

/** `/source/flags` → its parts; anything else is taken as a bare source (stored forms are always /…/). */
export function splitRegex(stored: string): { source: string; flags: string } {
  const m = /^\/([\s\S]*)\/([a-z]*)$/.exec(stored);
  return m ? { source: m[1]!, flags: m[2]! } : { source: stored, flags: 'i' };
}

/** An anchored, case-insensitive regex matching `text` with `*` and `?` as wildcards (`u` when not ASCII). */
export function wildcardRegex(text: string): string {
  const source = text
    .split(/([*?])/)
    .map((part) => (part === '*' ? '.*' : part === '?' ? '.' : escapeRegex(part)))
    .join('');
  return `/^${source}$/${hasNonAscii(text) ? 'iu' : 'i'}`;
}

/** The whole text, case-insensitive: the exact special (Subject) and address patterns. */
export const exactRegex = (text: string) => `/^${escapeRegex(text)}$/${hasNonAscii(text) ? 'iu' : 'i'}`;

const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
/** What cannot stand in a map line as is: ASCII blanks and controls, and `#`. */
const UNSAFE = /[\x00-\x20#\x7f]/;

/**
 * A `/source/flags` regex as one token of a map line: Rspamd splits a line at the first ASCII blank
 * and takes `#` for the start of a comment, so those and control characters become `\xHH` escapes
 * (same meaning inside and outside a character class). An escaped one (`\ `, `\#`) loses its
 * backslash: `\x20` already means that character.
 */
export function mapRegexToken(stored: string): string {
  const { source, flags } = splitRegex(stored);
  let out = '';
  for (let i = 0; i < source.length; i++) {
    let c = source[i]!;
    if (c === '\\' && i + 1 < source.length) {
      c = source[++i]!;
      out += UNSAFE.test(c) ? hex(c) : `\\${c}`;
    } else {
      out += UNSAFE.test(c) ? hex(c) : c;
    }
  }
  return `/${out}/${flags}`;
}

// ---------------------------------------------------------------------------------------------
// Filters

export interface FilterRow {
  id: string;
  value: string;
  pattern_type: 'exact' | 'wildcard' | 'regex' | 'cidr';
  action: FilterAction;
}

/** The line of one enabled filter and the kind of map it goes to (its family decides how). */
export function filterLine(type: FilterType, row: FilterRow): { kind: FilterMapKind; line: string } {
  const token = `filter:${row.id}`;
  const { pattern_type: pt, value } = row;
  if (pt === 'regex') return { kind: 'regex', line: `${mapRegexToken(value)} ${token}` };
  if (type === 'ips') {
    if (pt === 'exact' || pt === 'cidr') return { kind: 'radix', line: `${value} ${token}` };
    return { kind: 'regex', line: `${mapRegexToken(wildcardRegex(value))} ${token}` };
  }
  if (type === 'special') {
    const re = pt === 'wildcard' ? wildcardRegex(value) : exactRegex(value);
    return { kind: 'regex', line: `${mapRegexToken(re)} ${token}` };
  }
  if (pt === 'wildcard') return { kind: 'regex', line: `${mapRegexToken(wildcardRegex(value))} ${token}` };
  return { kind: 'exact', line: `${value} ${token}` };
}

/** Every map of a filter family: name → body (header line, then one line per enabled rule). */
export function buildFilterMaps(type: FilterType, version: number, rows: readonly FilterRow[]): Map<string, string> {
  const lines = new Map<string, string[]>();
  for (const kind of FILTER_MAP_KINDS[type]) {
    for (const action of FILTER_ACTIONS) {
      const name = filterMapName(type, kind, action);
      lines.set(name, [headerLine(name, version)]);
    }
  }
  for (const row of rows) {
    const { kind, line } = filterLine(type, row);
    lines.get(filterMapName(type, kind, row.action))?.push(line);
  }
  return new Map([...lines].map(([name, l]) => [name, `${l.join('\n')}\n`]));
}

// ---------------------------------------------------------------------------------------------
// Control-panel filters and system rules (JSON, read by local.d/rspamd.lua)

/** An address pattern (address, `*@domain`, wildcards, or `/regex/flags`) as a regex; `*` alone: null (anyone). */
export function addressRegex(pattern: string | null, { regex = true } = {}): string | null {
  if (pattern === null || pattern === '' || pattern === '*') return null;
  // Control-panel patterns are never regexes: a stored `/x/@y` is an address (it was refused on save).
  if (regex && pattern.startsWith('/')) return pattern;
  return /[*?]/.test(pattern) ? wildcardRegex(pattern) : exactRegex(pattern);
}

/** A subject pattern: exact whole subject, wildcards, or `/regex/flags`. */
export function subjectRegex(pattern: string | null): string | null {
  if (pattern === null || pattern === '') return null;
  if (pattern.startsWith('/')) return pattern;
  return /[*?]/.test(pattern) ? wildcardRegex(pattern) : exactRegex(pattern);
}

export interface ApanelRow {
  id: string;
  from_pattern: string;
  to_pattern: string;
  action: string;
}

export interface SystemRow {
  id: string;
  from_pattern: string | null;
  subject_pattern: string | null;
  to_pattern: string | null;
  ip_pattern: string | null;
  action: string;
}

export function buildApanelMap(version: number, rows: readonly ApanelRow[]): string {
  const filters = rows.map((r) => ({
    token: `apanel:${r.id}`,
    from: addressRegex(r.from_pattern, { regex: false }),
    to: addressRegex(r.to_pattern, { regex: false }),
    action: r.action,
  }));
  return `${JSON.stringify({ qconsole: APANEL_MAP, version, filters })}\n`;
}

export function buildSystemMap(version: number, rows: readonly SystemRow[]): string {
  const rules = rows.map((r) => ({
    token: `system:${r.id}`,
    from: addressRegex(r.from_pattern),
    subject: subjectRegex(r.subject_pattern),
    to: addressRegex(r.to_pattern),
    ip: r.ip_pattern || null,
    action: r.action,
  }));
  return `${JSON.stringify({ qconsole: SYSTEM_MAP, version, rules })}\n`;
}

// ---------------------------------------------------------------------------------------------
// Whitelists and blacklists (issue 18, read by local.d/rspamd.lua per recipient)

export interface SenderListRow {
  id: string;
  kind: 'whitelist' | 'blacklist';
  scope: 'user' | 'domain' | 'global';
  address: string;
  /** An address of the user (scope user: a row per address of theirs), else null. */
  user_email: string | null;
  /** The domain's name (scope domain), else null. */
  domain_name: string | null;
}

/** Whose entry, as Rspamd compares it with a recipient: the address, `@domain`, or `*`; null: no owner. */
export function senderListOwner(row: SenderListRow): string | null {
  const ascii = (name: string) => domainToASCII(name.trim().toLowerCase()) || null;
  if (row.scope === 'global') return '*';
  if (row.scope === 'domain') {
    const domain = row.domain_name ? ascii(row.domain_name) : null;
    return domain ? `@${domain}` : null;
  }
  const email = row.user_email?.trim().toLowerCase() ?? '';
  const at = email.lastIndexOf('@');
  if (at < 1) return null;
  const domain = ascii(email.slice(at + 1));
  return domain ? `${email.slice(0, at)}@${domain}` : null;
}

/**
 * `{"qconsole":"sender-lists.json","version":N,"entries":[[owner, sender, "w"|"b", id], …]}`: owner
 * as senderListOwner, sender the stored address (`a@b.example` or `@b.example`, already lower case
 * and A-label). A user's entry comes once per address of theirs (the same id under each: it applies
 * to the mail of any of them). An entry whose owner cannot be named (a user without a usable
 * e-mail) is left out.
 */
export function buildSenderListsMap(version: number, rows: readonly SenderListRow[]): string {
  const entries: [string, string, 'w' | 'b', string][] = [];
  for (const row of rows) {
    const owner = senderListOwner(row);
    if (owner) entries.push([owner, row.address, row.kind === 'whitelist' ? 'w' : 'b', row.id]);
  }
  return `${JSON.stringify({ qconsole: SENDER_LISTS_MAP, version, entries })}\n`;
}
