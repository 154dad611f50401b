import type { FilterType, PatternType } from '@qc/contracts';
import { PatternError } from './pattern-error';
import { normaliseAddressPattern, normaliseFilterValue, systemRulePattern } from './patterns';
import { normaliseRegex } from './regex-safety';

/** The stored form, or `!` + the message's expected part when refused. */
function outcome(fn: () => { value: string; pattern_type?: string } | string): string {
  try {
    const out = fn();
    return typeof out === 'string' ? out : `${out.pattern_type}:${out.value}`;
  } catch (err) {
    if (err instanceof PatternError) return `!${err.message}`;
    throw err;
  }
}

/** What `outcome` must give: the stored form, or a refusal whose message contains the text after `!`. */
const want = (expected: string) =>
  expected.startsWith('!')
    ? expect.stringMatching(new RegExp(`^!.*${expected.slice(1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 's'))
    : expected;

const filter = (type: FilterType, patternType: PatternType, value: string) =>
  outcome(() => normaliseFilterValue(type, patternType, value));

/** [family, pattern type, input, stored `type:value`, or `!` and a part of the message]. */
const FILTERS: [FilterType, PatternType, string, string][] = [
  // domains
  ['domains', 'exact', 'Bad.Example.', 'exact:bad.example'],
  ['domains', 'exact', 'Bücher.example', 'exact:xn--bcher-kva.example'],
  ['domains', 'exact', 'пример.рф', 'exact:xn--e1afmkfd.xn--p1ai'],
  ['domains', 'exact', `${'a'.repeat(63)}.example`, `exact:${'a'.repeat(63)}.example`],
  ['domains', 'exact', `${'a'.repeat(64)}.example`, '!longer than 63 characters'],
  ['domains', 'exact', `${'abcdefghi.'.repeat(25)}example`, '!at most 253 characters'],
  ['domains', 'exact', 'a..example', '!no empty labels'],
  ['domains', 'exact', 'a_b.example', '!"_" is not allowed'],
  ['domains', 'exact', '-a.example', '!starts or ends with a hyphen'],
  ['domains', 'exact', 'localhost', '!at least two labels'],
  ['domains', 'exact', '192.0.2.1', '!IP addresses go in the ips family'],
  ['domains', 'exact', 'user@bad.example', '!has no @'],
  ['domains', 'exact', '*.bad.example', '!choose the wildcard pattern type'],
  ['domains', 'wildcard', '*.Bad.Example', 'wildcard:*.bad.example'],
  ['domains', 'wildcard', 'spam?.bücher.example', 'wildcard:spam?.xn--bcher-kva.example'],
  ['domains', 'wildcard', 'bad.example', 'exact:bad.example'],
  ['domains', 'wildcard', '[ab].example', '!Only * and ? are wildcards: "[" is not allowed'],
  ['domains', 'wildcard', '{a,b}.example', '!"{" is not allowed'],
  ['domains', 'wildcard', 'bü*.example', '!can only hold ASCII letters'],
  ['domains', 'wildcard', '*..example', '!no empty labels'],
  ['domains', 'regex', '^(.+\\.)?bad\\.example$', 'regex:/^(.+\\.)?bad\\.example$/i'],
  ['domains', 'regex', '/bad\\.example$/', 'regex:/bad\\.example$/'],
  ['domains', 'regex', '(a+)+$', '!backtrack catastrophically'],
  ['domains', 'cidr', '10.0.0.0/8', '!takes the pattern types exact, wildcard, regex'],
  // Catch-alls: a rule of one such pattern would act on all mail.
  ['domains', 'wildcard', '*', '!matches all mail'],
  ['domains', 'wildcard', '*.*', '!matches all mail'],
  ['domains', 'regex', '/.*/', '!matches all mail'],
  ['domains', 'regex', '^.+$', '!matches all mail'],
  ['users', 'wildcard', '*@*', '!matches all mail'],
  ['ips', 'cidr', '0.0.0.0/0', '!matches all mail'],
  ['ips', 'cidr', '::/0', '!matches all mail'],
  ['special', 'wildcard', '*', '!matches all mail'],
  // users
  ['users', 'exact', 'John.Doe@Bücher.Example', 'exact:john.doe@xn--bcher-kva.example'],
  ['users', 'exact', `${'a'.repeat(64)}@x.example`, `exact:${'a'.repeat(64)}@x.example`],
  ['users', 'exact', `${'a'.repeat(65)}@x.example`, '!at most 64 octets'],
  ['users', 'exact', `${'é'.repeat(33)}@x.example`, '!at most 64 octets'],
  ['users', 'exact', 'a..b@x.example', '!two dots in a row'],
  ['users', 'exact', 'a(b)@x.example', '!"(" is not allowed'],
  ['users', 'exact', '"a b"@x.example', '!Quoted addresses'],
  ['users', 'exact', 'a#b@x.example', '!"#" cannot be used in a filter address'],
  ['users', 'exact', 'nobody', '!name@domain'],
  ['users', 'exact', 'a@bad', '!After @: A domain has at least two labels'],
  ['users', 'exact', 'news*@promo.example', '!choose the wildcard pattern type'],
  ['users', 'exact', '@bad.example', 'wildcard:*@bad.example'],
  ['users', 'wildcard', '*@Bad.Example', 'wildcard:*@bad.example'],
  ['users', 'wildcard', 'news-*@promo.example', 'wildcard:news-*@promo.example'],
  ['users', 'wildcard', '*@*.bad.example', 'wildcard:*@*.bad.example'],
  ['users', 'wildcard', 'a@b.example', 'exact:a@b.example'],
  ['users', 'wildcard', '*bad*', '!name@domain'],
  ['users', 'wildcard', '[a]*@x.example', '!"[" is not allowed'],
  ['users', 'wildcard', 'a{1}*@x.example', '!"{" is not allowed'],
  ['users', 'regex', '/^news-\\d+@promo\\.example$/i', 'regex:/^news-\\d+@promo\\.example$/i'],
  ['users', 'regex', '(\\w+)@\\1\\.example', '!Backreferences'],
  // ips
  ['ips', 'exact', '192.0.2.1', 'exact:192.0.2.1'],
  ['ips', 'exact', '010.1.1.1', '!Leading zeros are not allowed'],
  ['ips', 'exact', '256.1.1.1', '!0 to 255 (256 is not)'],
  ['ips', 'exact', '1.2.3', '!has 4 numbers'],
  ['ips', 'exact', '1.2.3.4.5', '!has 4 numbers'],
  ['ips', 'exact', '1.2.3.x', '!"x" is not a number'],
  ['ips', 'exact', '2001:DB8:0:0:0:0:0:1', 'exact:2001:db8::1'],
  ['ips', 'exact', '2001:db8:0:0:1:0:0:1', 'exact:2001:db8::1:0:0:1'],
  ['ips', 'exact', '::ffff:192.0.2.1', 'exact:192.0.2.1'],
  ['ips', 'exact', '::ffff:c000:201', 'exact:192.0.2.1'],
  ['ips', 'exact', '::ffff:010.0.2.1', '!Leading zeros'],
  ['ips', 'exact', 'fe80::1%eth0', '!zone index'],
  ['ips', 'exact', '2001:db8::g', '!not a valid IPv6 address'],
  ['ips', 'exact', '1:2:3:4:5:6:7:8:9', '!not a valid IPv6 address'],
  ['ips', 'cidr', '10.0.0.0/24', 'cidr:10.0.0.0/24'],
  ['ips', 'cidr', '10.0.0.1/24', '!Host bits are set: the network is 10.0.0.0/24'],
  ['ips', 'cidr', '10.0.0.0/33', '!0 to 32 (/33 is not)'],
  ['ips', 'cidr', '10.0.0.0/024', '!(/024 is not)'],
  ['ips', 'cidr', '10.0.0.0/', '!0 to 32'],
  ['ips', 'cidr', '192.0.2.7/32', 'exact:192.0.2.7'],
  ['ips', 'cidr', '0.0.0.0/1', 'cidr:0.0.0.0/1'],
  ['ips', 'cidr', '2001:DB8::/32', 'cidr:2001:db8::/32'],
  ['ips', 'cidr', '2001:db8::1/64', '!the network is 2001:db8::/64'],
  ['ips', 'cidr', '::1/128', 'exact:::1'],
  ['ips', 'cidr', '::1/129', '!0 to 128 (/129 is not)'],
  ['ips', 'cidr', '::ffff:10.0.0.0/104', 'cidr:10.0.0.0/8'],
  ['ips', 'cidr', '::ffff:0:0/96', '!matches all mail'],
  ['ips', 'cidr', '::ffff:0:0/80', '!the network is ::/80'],
  ['ips', 'exact', '10.0.0.0/8', 'cidr:10.0.0.0/8'],
  ['ips', 'wildcard', '192.0.2.*', 'cidr:192.0.2.0/24'],
  ['ips', 'wildcard', '10.*.*.*', 'cidr:10.0.0.0/8'],
  ['ips', 'wildcard', '192.0.*.1', '!whole trailing numbers'],
  ['ips', 'wildcard', '192.0.2.1*', '!whole trailing numbers'],
  ['ips', 'wildcard', '192.0.2.?', '!? is not allowed'],
  ['ips', 'wildcard', '2001:db8::*', '!Wildcards are for IPv4'],
  ['ips', 'wildcard', '192.0.*', '!4 parts'],
  ['ips', 'regex', '^192\\.0\\.2\\.\\d+$', 'regex:/^192\\.0\\.2\\.\\d+$/i'],
  // special: the Subject header
  ['special', 'exact', '  Free MONEY now ', 'exact:free money now'],
  ['special', 'exact', '[SPAM] {offer}', 'exact:[spam] {offer}'],
  ['special', 'exact', 'line\nbreak', '!control characters'],
  ['special', 'wildcard', 'Win a * today?', 'wildcard:win a * today?'],
  ['special', 'wildcard', 'no wildcard', 'exact:no wildcard'],
  ['special', 'wildcard', '[SPAM]*', '!"[" is not allowed'],
  ['special', 'wildcard', 'a\\*', '!"\\" is not allowed'],
  ['special', 'regex', '/invoice \\d+/i', 'regex:/invoice \\d+/i'],
  ['special', 'regex', 'a(?=b)', '!Lookahead'],
  ['special', 'regex', `/${'a'.repeat(257)}/`, '!at most 256 characters'],
  ['special', 'cidr', '10.0.0.0/8', '!takes the pattern types'],
];

describe('filter values: stored form or a specific refusal', () => {
  test.each(FILTERS)('%s %s %j → %s', (type, patternType, input, expected) => {
    expect(filter(type, patternType, input)).toEqual(want(expected));
  });
});

/** Regexes: accepted (stored form) or refused (part of the message). */
const REGEXES: [string, string][] = [
  ['viagra', '/viagra/i'],
  ['/Free\\s+Money/', '/Free\\s+Money/'],
  ['/x/smi', '/x/ims'],
  ['^([a-z0-9-]+\\.)+example\\.com$', '/^([a-z0-9-]+\\.)+example\\.com$/i'],
  ['^(\\d{1,3}\\.){3}\\d{1,3}$', '/^(\\d{1,3}\\.){3}\\d{1,3}$/i'],
  ['(cat|car)+s', '/(cat|car)+s/i'],
  ['[a-z]*[0-9]*x', '/[a-z]*[0-9]*x/i'],
  ['a.b/c', '/a.b/c/i'],
  ['[^\\]-]+', '/[^\\]-]+/i'],
  ['\\x41\\t', '/\\x41\\t/i'],
  // catastrophic backtracking
  ['(a+)+$', '!backtrack catastrophically'],
  ['(a*)*', '!backtrack catastrophically'],
  ['(.*a){20}', '!backtrack catastrophically'],
  ['(a|aa)+', '!backtrack catastrophically'],
  ['(a|a)*', '!backtrack catastrophically'],
  ['(\\w+\\s?)+$', '!backtrack catastrophically'],
  ['(x+x+)+y', '!backtrack catastrophically'],
  ['^(A|a)+$', '!backtrack catastrophically'], // overlap only under /i
  ['(\\d+|\\d+\\.\\d+)+', '!backtrack catastrophically'],
  ['(' + '.|'.repeat(100) + '.)*', '!backtrack catastrophically'],
  // what Hyperscan cannot run, or PCRE and JS read differently
  ['(a)\\1', '!Backreferences (\\1)'],
  ['(?<n>a)\\k<n>', '!Named groups'],
  ['\\k<n>', '!Backreferences (\\k'],
  ['a(?=b)', '!Lookahead'],
  ['a(?!b)', '!Negative lookahead'],
  ['(?<=a)b', '!Lookbehind'],
  ['(?<!a)b', '!Negative lookbehind'],
  ['a++', '!Possessive'],
  ['(?>a|b)', '!Atomic groups'],
  ['(a)?(?(1)b|c)', '!Conditionals'],
  ['(?i)abc', '!Inline flags'],
  ['\\p{L}+', '!Unicode properties'],
  ['\\Aabc\\z', '!anchor \\A'],
  ['[[:alpha:]]', '!POSIX classes'],
  ['(*SKIP)a', '!Backtracking verbs'],
  ['\\Qa.b\\E', '!\\Q…\\E'],
  ['\\x{41}', '!\\x{…}'],
  ['a{1001}', '!at most 1000'],
  ['a{3,2}', '!out of order'],
  ['[z-a]', '!out of order'],
  ['a**', '!cannot follow another'],
  ['*a', '!Nothing to repeat'],
  ['x{', '!Escape a literal {'],
  ['(abc', '!Missing )'],
  ['abc)', '!Unmatched )'],
  ['[abc', '!Missing ]'],
  ['[]a]', '!leading ]'],
  ['/abc/x', '!Unknown regex flag "x"'],
  ['/abc/ii', '!given twice'],
  ['/abc', '!ends with / and its flags'],
  ['//i', '!empty'],
  ['a'.repeat(257), '!at most 256 characters'],
];

describe('regexes', () => {
  test.each(REGEXES)('%j → %s', (input, expected) => {
    expect(outcome(() => normaliseRegex(input))).toEqual(want(expected));
  });

  test('a large regex is decided quickly (no exponential work in the checker itself)', () => {
    const started = Date.now();
    for (const source of [
      'a?'.repeat(128),
      '[a-z]*'.repeat(42),
      '\\w*'.repeat(80),
      `(${'w'.repeat(3)}|x)+`.repeat(20),
    ]) {
      outcome(() => normaliseRegex(source.slice(0, 256)));
    }
    // Generous: only an exponential blow-up (minutes) fails it, not a busy machine.
    expect(Date.now() - started).toBeLessThan(15000);
  });
});

/** Control-panel and system-rule address patterns. */
const ADDRESSES: [string, string][] = [
  ['*', '*'],
  ['Boss@Corp.Example', 'boss@corp.example'],
  ['@Bad.Example', '*@bad.example'],
  ['*@*.bad.example', '*@*.bad.example'],
  ['news-*@promo.example', 'news-*@promo.example'],
  ['*spam*', '*spam*'],
  ['bad.example', '!Write a domain as @bad.example'],
  ['a@[1.2.3.4]', '!"[" is not allowed'],
  ['*(x)*', '!"(" is not allowed'],
  ['a b@c.example', '!" " is not allowed'],
  // Never a regex in disguise (Rspamd would compile "/^.*/@x.example" as ^.* with a bad flag).
  ['/^.*/@x.example', '!"/" cannot start an address pattern'],
];

describe('address patterns (control-panel filters, system rules)', () => {
  test.each(ADDRESSES)('%j → %s', (input, expected) => {
    expect(outcome(() => normaliseAddressPattern(input))).toEqual(want(expected));
  });

  test.each([
    ['address', '/^news-\\d+@/i', '/^news-\\d+@/i'],
    ['address', '@Promo.Example', '*@promo.example'],
    ['address', '/(a+)+@x/', '!backtrack catastrophically'],
    ['subject', 'Invoice *', 'invoice *'],
    ['subject', 'Exact Subject', 'exact subject'],
    ['subject', '/invoice (\\d+)/', '/invoice (\\d+)/'],
    ['subject', '/x(?=y)/', '!Lookahead'],
    ['ip', '192.0.2.0/24', '192.0.2.0/24'],
    ['ip', '192.0.2.*', '192.0.2.0/24'],
    ['ip', '10.0.0.1/24', '!the network is 10.0.0.0/24'],
    ['ip', '/192\\.0/', '!An IP address or network'],
  ] as const)('system rule %s %j → %s', (kind, input, expected) => {
    expect(outcome(() => systemRulePattern[kind](input))).toEqual(want(expected));
  });
});
