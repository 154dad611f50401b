import type { RspamdSymbol } from '@qc/contracts';
import { visibleListOptions } from './hold-reasons';

// Issue 29: a whitelist option says what its entry matched (`:env`, `:from:<domain>`); a non-admin
// still reads the options of the recipients they see, and only those.
const ENTRY = '01JD0000000000000000000000';
const symbol = (name: string, options: string[]): RspamdSymbol => ({
  symbol: name,
  score: 0,
  description: null,
  options,
  group: 'qconsole',
  groups: ['qconsole'],
});

describe('list options with the identity the whitelist matched', () => {
  const whitelist = [
    `ann@a.example=list:${ENTRY}:env`,
    `@a.example=list:${ENTRY}:from:trusted.example`,
    `carl@b.example=list:${ENTRY}:env:from:trusted.example`,
    `*=list:${ENTRY}`,
  ];
  const symbols = [symbol('QC_LIST_WHITELIST', whitelist), symbol('R_SPF_ALLOW', ['+ip4:192.0.2.1'])];

  test('a recipient reads their own, their domain’s and the global option, whatever the tail', () => {
    const seen = visibleListOptions(symbols, { kind: 'recipient', addresses: ['ann@a.example'] });
    expect(seen.find((s) => s.symbol === 'QC_LIST_WHITELIST')?.options).toEqual([
      whitelist[0],
      whitelist[1],
      whitelist[3],
    ]);
    // Other symbols untouched.
    expect(seen.find((s) => s.symbol === 'R_SPF_ALLOW')?.options).toEqual(['+ip4:192.0.2.1']);
  });

  test('a user with several addresses (issue 31) reads the options of each and of their domains', () => {
    const seen = visibleListOptions(symbols, { kind: 'recipient', addresses: ['ann@a.example', 'carl@b.example'] });
    expect(seen.find((s) => s.symbol === 'QC_LIST_WHITELIST')?.options).toEqual(whitelist);
  });

  test('a domain_admin reads their domain’s recipients; not another domain’s, nor a malformed tail', () => {
    const odd = symbol('QC_LIST_WHITELIST', [...whitelist, `ann@a.example=list:${ENTRY}:bogus`]);
    const seen = visibleListOptions([odd], { kind: 'domain', domain: 'b.example' });
    expect(seen[0]!.options).toEqual([whitelist[2], whitelist[3]]);
  });
});
