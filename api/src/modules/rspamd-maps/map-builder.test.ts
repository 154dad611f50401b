import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../config';
import {
  addressRegex,
  buildFilterMaps,
  buildSenderListsMap,
  senderListOwner,
  exactRegex,
  filterLine,
  mapRegexToken,
  RSPAMD_MAPS,
  splitRegex,
  subjectRegex,
  wildcardRegex,
} from './map-builder';

const js = (stored: string) => {
  const { source, flags } = splitRegex(stored);
  return new RegExp(source, flags);
};

describe('regexes in a map line', () => {
  test.each([
    ['/a b/i', ['a b', 'A B'], ['ab']],
    ['/a\\ b/', ['a b'], ['a\\ b']],
    ['/a\\\\ b/', ['a\\ b'], ['a b']], // an escaped backslash, then a blank
    ['/[ #]x/', [' x', '#x'], ['x']],
    ['/\\#1/', ['#1'], ['1']],
    ['/tab\there/', ['tab\there'], ['tab here']],
    ['/^Grüße aus Köln$/iu', ['grüße aus köln'], ['Grüsse aus Köln']],
    ['/(?:\\d+ ){2}/', ['1 2 '], ['1 2']],
  ])('%s: one token, same matches', (stored, yes, no) => {
    const token = mapRegexToken(stored);
    expect(token).not.toMatch(/[\s#\x00-\x1f\x7f]/); // nothing that ends the key or starts a comment
    for (const s of yes) expect({ s, match: js(token).test(s) }).toEqual({ s, match: true });
    for (const s of no) expect({ s, match: js(token).test(s) }).toEqual({ s, match: false });
    expect(js(stored).source.length).toBeGreaterThan(0);
  });

  test('a bare source is taken with the i flag (stored forms are always /…/flags)', () => {
    expect(splitRegex('/a\\/b/im')).toEqual({ source: 'a\\/b', flags: 'im' });
    expect(splitRegex('plain')).toEqual({ source: 'plain', flags: 'i' });
  });
});

describe('wildcards and exact texts become anchored, case-insensitive regexes', () => {
  test.each([
    ['*.bad.example', ['mx.bad.example', 'A.B.BAD.EXAMPLE'], ['bad.example', 'mx.bad.example.org', 'mxxbad.example']],
    ['news-?@promo.example', ['news-1@promo.example', 'NEWS-A@Promo.Example'], ['news-12@promo.example']],
    ['Win a (big) * [now]', ['Win a (big) car [now]'], ['Win a big car now', 'xWin a (big) car [now]']],
  ])('%s', (wildcard, yes, no) => {
    const re = js(wildcardRegex(wildcard));
    for (const s of yes) expect({ s, match: re.test(s) }).toEqual({ s, match: true });
    for (const s of no) expect({ s, match: re.test(s) }).toEqual({ s, match: false });
  });

  test('exact: the whole text, metacharacters literal', () => {
    const re = js(exactRegex('Invoice #42 (final) $5.00?'));
    expect(re.test('invoice #42 (final) $5.00?')).toBe(true);
    expect(re.test('Invoice #42 (final) $5.00? now')).toBe(false);
    expect(re.test('Invoice #42 (final) $5x00?')).toBe(false);
    expect(exactRegex('Grüße')).toBe('/^Grüße$/iu');
  });

  test('address and subject patterns of the JSON maps; * alone is no condition', () => {
    expect(addressRegex('*')).toBeNull();
    expect(addressRegex(null)).toBeNull();
    expect(addressRegex('*@spam.example')).toBe('/^.*@spam\\.example$/i');
    expect(addressRegex('bob@corp.example')).toBe('/^bob@corp\\.example$/i');
    expect(addressRegex('/^a+@b$/')).toBe('/^a+@b$/');
    // A control-panel pattern is never taken as a regex.
    expect(addressRegex('/x/@b.example', { regex: false })).toBe('/^\\/x\\/@b\\.example$/i');
    expect(subjectRegex('Hello')).toBe('/^Hello$/i');
    expect(subjectRegex('')).toBeNull();
  });
});

describe('filters', () => {
  const row = (value: string, pattern_type: 'exact' | 'wildcard' | 'regex' | 'cidr') => ({
    id: 'ID',
    value,
    pattern_type,
    action: 'reject' as const,
  });

  test('each family and pattern type goes to its kind of map', () => {
    expect(filterLine('domains', row('bad.example', 'exact'))).toEqual({
      kind: 'exact',
      line: 'bad.example filter:ID',
    });
    expect(filterLine('domains', row('*.bad.example', 'wildcard')).kind).toBe('regex');
    expect(filterLine('users', row('a@b.example', 'exact')).kind).toBe('exact');
    expect(filterLine('ips', row('192.0.2.1', 'exact'))).toEqual({ kind: 'radix', line: '192.0.2.1 filter:ID' });
    expect(filterLine('ips', row('192.0.2.0/24', 'cidr')).kind).toBe('radix');
    expect(filterLine('ips', row('/^10\\./', 'regex')).kind).toBe('regex');
    // Not a stored form (a wildcard IP is saved as a CIDR), still served correctly rather than refused.
    expect(filterLine('ips', row('192.0.2.*', 'wildcard'))).toEqual({
      kind: 'regex',
      line: '/^192\\.0\\.2\\..*$/i filter:ID',
    });
    expect(filterLine('special', row('Hi there', 'exact'))).toEqual({
      kind: 'regex',
      line: '/^Hi\\x20there$/i filter:ID',
    });
  });

  test('every map of the family is built, each with its version line, the rules in order', () => {
    const maps = buildFilterMaps('users', 9, [
      { id: 'A', value: 'a@x.example', pattern_type: 'exact', action: 'accept' },
      { id: 'B', value: 'b@x.example', pattern_type: 'exact', action: 'accept' },
    ]);
    expect([...maps.keys()]).toEqual(RSPAMD_MAPS.filter((m) => m.list === 'filters-users').map((m) => m.name));
    expect(maps.get('filters-users-exact-accept')).toBe(
      '# qconsole filters-users-exact-accept version 9\na@x.example filter:A\nb@x.example filter:B\n',
    );
    expect(maps.get('filters-users-regex-reject')).toBe('# qconsole filters-users-regex-reject version 9\n');
  });
});

describe('sender lists', () => {
  const row = (over: Partial<Parameters<typeof senderListOwner>[0]>) => ({
    id: 'ID',
    kind: 'whitelist' as const,
    scope: 'user' as const,
    address: 'jane@sender.example',
    user_email: null,
    domain_name: null,
    ...over,
  });

  test('the owner as Rspamd compares it with a recipient: address, @domain (lower case, A-label), *', () => {
    expect(senderListOwner(row({ user_email: 'Bob@Bücher.Example' }))).toBe('bob@xn--bcher-kva.example');
    expect(senderListOwner(row({ scope: 'domain', domain_name: 'Corp.Example' }))).toBe('@corp.example');
    expect(senderListOwner(row({ scope: 'global' }))).toBe('*');
    // No usable owner (a broken row): left out rather than applied to everyone.
    expect(senderListOwner(row({ user_email: null }))).toBeNull();
    expect(senderListOwner(row({ user_email: 'nodomain' }))).toBeNull();
    expect(senderListOwner(row({ scope: 'domain', domain_name: null }))).toBeNull();
  });

  test('one [owner, sender, w|b, id] entry per row, in order; the version; never an empty body', () => {
    const body = buildSenderListsMap(4, [
      row({ id: 'A', user_email: 'bob@example.com', address: '@spam.example', kind: 'blacklist' }),
      row({ id: 'B', scope: 'domain', domain_name: 'example.com' }),
      row({ id: 'C', user_email: null }),
      row({ id: 'D', scope: 'global', address: 'news@xn--bcher-kva.example' }),
    ]);
    expect(body.endsWith('\n')).toBe(true);
    expect(JSON.parse(body)).toEqual({
      qconsole: 'sender-lists.json',
      version: 4,
      entries: [
        ['bob@example.com', '@spam.example', 'b', 'A'],
        ['@example.com', 'jane@sender.example', 'w', 'B'],
        ['*', 'news@xn--bcher-kva.example', 'w', 'D'],
      ],
    });
    expect(JSON.parse(buildSenderListsMap(1, [])).entries).toEqual([]);
  });
});

describe('the Rspamd configuration asks for exactly the maps the api serves', () => {
  const dir = path.join(REPO_ROOT, 'mailstack', 'rspamd', 'local.d');
  const multimap = readFileSync(path.join(dir, 'multimap.conf'), 'utf8');
  const lua = readFileSync(path.join(dir, 'rspamd.lua'), 'utf8');
  const rules = [...multimap.matchAll(/^(QC_\w+) \{\n([\s\S]*?)\n\}/gm)].map((m) => ({ symbol: m[1]!, body: m[2]! }));

  // What each kind of rule looks at: the envelope sender only (never the From header: see multimap.conf).
  const SOURCE: Record<string, string> = {
    'domains-exact': `selector = "from('smtp'):domain.lower";`,
    'domains-regex': `selector = "from('smtp'):domain.lower";`,
    'users-exact': `selector = "from('smtp'):addr.lower";`,
    'users-regex': `selector = "from('smtp'):addr.lower";`,
    'ips-radix': 'type = "ip";',
    'ips-regex': 'selector = "ip";',
    'special-regex': 'header = "Subject";',
  };

  test('multimap.conf: one rule per text map, named after it, with the filter and action that fit', () => {
    const text = RSPAMD_MAPS.filter((m) => m.format === 'text').map((m) => m.name);
    const asked = rules.map((r) => /map = "\$\{QC_MAPS_URL\}\/([\w.-]+)";/.exec(r.body)?.[1]);
    expect(asked.sort()).toEqual([...text].sort());
    for (const { symbol, body } of rules) {
      const map = /\/filters-(\w+)-(\w+)-(\w+)";/.exec(body)!;
      const [, type, kind, action] = map;
      expect(symbol).toBe(`QC_FILTER_${type}_${action}_${kind}`.toUpperCase());
      expect(body).toContain('disable_multisymbol = true;');
      expect(body).toContain(`action = "${action!.replace('_', ' ')}";`);
      expect(body.includes('regexp = true;')).toBe(kind === 'regex');
      expect(body).toContain(SOURCE[`${type}-${kind}`]);
    }
  });

  test('rspamd.lua reads the JSON maps', () => {
    const json = RSPAMD_MAPS.filter((m) => m.format === 'json').map((m) => m.name);
    expect([...lua.matchAll(/base \.\. '\/([\w.-]+)'/g)].map((m) => m[1]).sort()).toEqual([...json].sort());
  });
});
