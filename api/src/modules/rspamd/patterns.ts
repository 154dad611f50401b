import { FILTER_PATTERN_TYPES, RSPAMD_LIMITS, type FilterType, type PatternType } from '@qc/contracts';
import { domainToASCII } from 'node:url';
import { normaliseDomainName } from '../domains/domains.service';
import { ipWildcardToCidr, normaliseIpOrCidr } from './ip-patterns';
import { PatternError } from './pattern-error';
import { normaliseRegex } from './regex-safety';

/**
 * The stored forms of every pattern (the map builder relies on them; see the preamble of issue 17):
 * - domains: exact = IDNA A-label, lower case; wildcard = lower case, `*` and `?` only, other
 *   labels as A-labels; regex = `/source/flags`.
 * - users (sender address): exact = lower case, domain as A-label; wildcard `*@bad.example`,
 *   `news-*@promo.example` (`@bad.example` is `*@bad.example`); regex.
 * - ips: canonical address (exact), `network/prefix` with host bits zero (cidr; /32 and /128 are
 *   exact), `192.0.2.*` → `192.0.2.0/24`; regex.
 * - special (the Subject header): exact = the whole subject, lower case (matched case-insensitively);
 *   wildcard = lower case with `*` / `?`; regex.
 * Every function throws PatternError with a message for the user.
 */
export interface Normalised {
  value: string;
  pattern_type: PatternType;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DOTS = /[.\u3002\uff0e\uff61]/;
const WILDCARD = /[*?]/;
// Glob syntax of other tools (classes, braces, escapes): refused so that `*` and `?` are the only wildcards.
const GLOB_META = /[[\]{}\\]/;
// Local-part characters of an address (RFC 5322 atext) and, for RFC 6531, any non-ASCII character.
const ATEXT = /^[a-z0-9!#$%&'*+/=?^_`{|}~\u0080-\u{10ffff}-]$/u;

function noControls(raw: string): void {
  if (/[\x00-\x1f\x7f]/.test(raw))
    throw new PatternError('Line breaks, tabs and other control characters are not allowed');
}

function firstGlobMeta(value: string, hint = ''): void {
  const bad = GLOB_META.exec(value)?.[0];
  if (bad) throw new PatternError(`Only * and ? are wildcards: "${bad}" is not allowed${hint}`);
}

/** Why one label (ASCII or a U-label) is not valid, or null; `ascii` is its A-label. */
function labelProblem(label: string): { problem: string | null; ascii: string } {
  const ascii = /^[\x00-\x7f]*$/.test(label) ? label : domainToASCII(label);
  const bad = /[^a-z0-9-]/.exec(ascii)?.[0];
  if (!ascii || bad) {
    return { ascii, problem: `"${bad ?? label}" is not allowed in a domain: only letters, digits, hyphens and dots` };
  }
  if (ascii.length > 63) return { ascii, problem: `The label "${label}" is longer than 63 characters` };
  if (!LABEL.test(ascii)) return { ascii, problem: `The label "${label}" starts or ends with a hyphen` };
  return { ascii, problem: null };
}

/** Why a (lower-case, ASCII or IDN) domain is not valid: the first problem found. */
function domainProblem(input: string): string {
  if (input.includes('@')) return 'A domain has no @: put addresses in the users family';
  const labels = input.split(DOTS);
  if (labels.some((l) => l === '')) return 'A domain has no empty labels (a..b, or a dot at the start)';
  for (const label of labels) {
    const { problem } = labelProblem(label);
    if (problem) return problem;
  }
  if (labels.length < 2) return 'A domain has at least two labels (example.com)';
  if (/^\d+$/.test(labels[labels.length - 1]!))
    return 'The last label cannot be all digits: IP addresses go in the ips family';
  if ((domainToASCII(input) || input).length > 253) return 'A domain is at most 253 characters';
  return 'Not a valid domain name';
}

/** An exact domain: the IDNA A-label form, lower case, no final dot. */
export function normaliseDomain(raw: string): string {
  const input = raw
    .trim()
    .toLowerCase()
    .replace(/[.\u3002\uff0e\uff61]$/, '');
  if (WILDCARD.test(input)) throw new PatternError('* and ? are wildcards: choose the wildcard pattern type');
  const name = normaliseDomainName(input);
  if (!name) throw new PatternError(domainProblem(input));
  return name;
}

/** A domain with `*` / `?` in some labels; the other labels as A-labels. Without a wildcard: exact. */
export function normaliseDomainWildcard(raw: string): string {
  const input = raw
    .trim()
    .toLowerCase()
    .replace(/[.\u3002\uff0e\uff61]$/, '');
  firstGlobMeta(input);
  if (!WILDCARD.test(input)) return normaliseDomain(input);
  if (input.includes('@')) throw new PatternError('A domain has no @: put addresses in the users family');
  const labels = input.split(DOTS);
  if (labels.some((l) => l === '')) throw new PatternError('A domain pattern has no empty labels (a..b)');
  const ascii = labels.map((label) => {
    if (WILDCARD.test(label)) {
      if (!/^[a-z0-9*?-]+$/.test(label)) {
        throw new PatternError(
          `The label "${label}" has a wildcard: it can only hold ASCII letters, digits, hyphens, * and ?`,
        );
      }
      if (label.length > 63) throw new PatternError(`The label "${label}" is longer than 63 characters`);
      return label;
    }
    const { problem, ascii } = labelProblem(label);
    if (problem) throw new PatternError(problem);
    return ascii;
  });
  const value = ascii.join('.');
  if (value.length > 253) throw new PatternError('A domain is at most 253 characters');
  return value;
}

function localPartProblem(local: string, wildcards: boolean): string | null {
  if (local.startsWith('"')) return 'Quoted addresses ("…"@domain) are not supported';
  for (const c of local) {
    if (c === '.') continue;
    if (!wildcards && (c === '*' || c === '?')) return '* and ? are wildcards: choose the wildcard pattern type';
    if (!ATEXT.test(c)) return `"${c}" is not allowed in an address`;
    // Valid in an address, but a Rspamd map line reads everything after it as a comment.
    if (c === '#') return '"#" cannot be used in a filter address (Rspamd maps read it as a comment)';
  }
  if (!wildcards && (local.startsWith('.') || local.endsWith('.') || local.includes('..'))) {
    return 'The part before @ cannot start or end with a dot, nor have two dots in a row';
  }
  if (Buffer.byteLength(local, 'utf8') > 64) return 'The part before @ is at most 64 octets';
  return null;
}

/** `local@domain` (lower case, domain as A-label); with wildcards: `*` / `?` in either part. */
function normaliseAddressParts(input: string, wildcards: boolean): string {
  const at = input.lastIndexOf('@');
  if (at < 0) throw new PatternError('An address has the form name@domain');
  const local = input.slice(0, at);
  const problem = localPartProblem(local, wildcards);
  if (problem) throw new PatternError(problem);
  let domain: string;
  try {
    domain = wildcards ? normaliseDomainWildcard(input.slice(at + 1)) : normaliseDomain(input.slice(at + 1));
  } catch (err) {
    if (err instanceof PatternError) throw new PatternError(`After @: ${err.message}`);
    throw err;
  }
  const value = `${local}@${domain}`;
  if (value.length > 254) throw new PatternError('An address is at most 254 characters');
  return value;
}

/** An exact sender address. */
export function normaliseAddress(raw: string): string {
  return normaliseAddressParts(raw.trim().toLowerCase(), false);
}

/** An address pattern with wildcards; `@domain` is `*@domain`. Without a wildcard: exact. */
export function normaliseAddressWildcard(raw: string): string {
  let input = raw.trim().toLowerCase();
  firstGlobMeta(input);
  if (input.startsWith('@')) input = `*${input}`;
  if (!input.includes('@')) {
    throw new PatternError('A sender pattern has the form name@domain (*@bad.example, news-*@promo.example)');
  }
  return normaliseAddressParts(input, WILDCARD.test(input));
}

/**
 * An envelope address pattern of a control-panel filter or a system rule: an address, `@domain`
 * (stored `*@domain`), a wildcard (`*`, `?`), or `*` alone: anyone.
 */
export function normaliseAddressPattern(raw: string): string {
  const input = raw.trim().toLowerCase();
  noControls(input);
  if (input === '*') return '*';
  // Legal in an address, but `/…/` reads as a regex everywhere else in the rules: refuse the doubt.
  if (input.startsWith('/')) throw new PatternError('"/" cannot start an address pattern');
  if (input.startsWith('@') || input.includes('@')) {
    return WILDCARD.test(input) || input.startsWith('@') ? normaliseAddressWildcard(input) : normaliseAddress(input);
  }
  if (!WILDCARD.test(input))
    throw new PatternError('Write a domain as @bad.example, or a full address (name@bad.example)');
  firstGlobMeta(input);
  const bad = [...input].find((c) => c !== '.' && !ATEXT.test(c));
  if (bad) throw new PatternError(`"${bad}" is not allowed in an address`);
  return input;
}

/** A subject: exact (whole subject) or wildcard, lower case (both match case-insensitively). */
export function normaliseSubject(raw: string, wildcard: boolean): Normalised {
  const value = raw.trim().toLowerCase();
  noControls(value);
  if (!value) throw new PatternError('Pattern is required');
  if (!wildcard || !WILDCARD.test(value)) return { value, pattern_type: 'exact' };
  firstGlobMeta(value, ' (to match it, use a regex: \\[ \\{ \\\\)');
  return { value, pattern_type: 'wildcard' };
}

function checkLength(value: string): string {
  if ([...value].length > RSPAMD_LIMITS.value) {
    throw new PatternError(`At most ${RSPAMD_LIMITS.value} characters once normalised`);
  }
  return value;
}

const CATCH_ALL_REGEX = /^\/\^?(\.[*+])?\$?\/[imsu]*$/;
/**
 * Whether a stored pattern matches (nearly) all mail: `*`, `*@*`, `*.*`, `0.0.0.0/0`, `::/0`,
 * `/.*\/`… A rule made only of such patterns would discard, refuse or let through everything.
 */
export function isCatchAll(value: string | null): boolean {
  if (value === null) return false;
  if (value === '0.0.0.0/0' || value === '::/0') return true;
  if (CATCH_ALL_REGEX.test(value)) return true;
  return value.includes('*') && /^[*?@.]+$/.test(value);
}

export const CATCH_ALL_MESSAGE = 'This pattern matches all mail: narrow it';

/** A filter's value in its stored form; the pattern type may change (an IP wildcard is a cidr, a /32 exact…). */
export function normaliseFilterValue(type: FilterType, patternType: PatternType, raw: string): Normalised {
  noControls(raw);
  if (!FILTER_PATTERN_TYPES[type].includes(patternType)) {
    throw new PatternError(`The ${type} family takes the pattern types ${FILTER_PATTERN_TYPES[type].join(', ')}`);
  }
  let out: Normalised;
  if (patternType === 'regex') {
    out = { value: normaliseRegex(raw), pattern_type: 'regex' };
  } else if (type === 'domains') {
    const value = patternType === 'wildcard' ? normaliseDomainWildcard(raw) : normaliseDomain(raw);
    out = { value, pattern_type: WILDCARD.test(value) ? 'wildcard' : 'exact' };
  } else if (type === 'users') {
    const trimmed = raw.trim();
    const value =
      patternType === 'wildcard' || trimmed.startsWith('@')
        ? normaliseAddressWildcard(trimmed)
        : normaliseAddress(trimmed);
    out = { value, pattern_type: WILDCARD.test(value) ? 'wildcard' : 'exact' };
  } else if (type === 'ips') {
    out = raw.includes('*') || raw.includes('?') ? ipWildcardToCidr(raw) : normaliseIpOrCidr(raw);
  } else {
    out = normaliseSubject(raw, patternType === 'wildcard');
  }
  if (isCatchAll(out.value)) throw new PatternError(CATCH_ALL_MESSAGE);
  return { ...out, value: checkLength(out.value) };
}

/** The fields of a system rule, each in its stored form (regexes are written `/source/flags`). */
export const systemRulePattern = {
  address(raw: string): string {
    noControls(raw);
    const input = raw.trim();
    return checkLength(input.startsWith('/') ? normaliseRegex(input) : normaliseAddressPattern(input));
  },
  subject(raw: string): string {
    noControls(raw);
    const input = raw.trim();
    return checkLength(input.startsWith('/') ? normaliseRegex(input) : normaliseSubject(input, true).value);
  },
  ip(raw: string): string {
    noControls(raw);
    const input = raw.trim();
    if (input.startsWith('/'))
      throw new PatternError('An IP address or network (192.0.2.1, 192.0.2.0/24 or 192.0.2.*)');
    return (input.includes('*') || input.includes('?') ? ipWildcardToCidr(input) : normaliseIpOrCidr(input)).value;
  },
};
