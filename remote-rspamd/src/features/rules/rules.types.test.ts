import * as contracts from '@qc/contracts';
import * as mirrored from './rules.types';

// The remote mirrors the contract's constants (importing them would bundle zod): they must agree.
describe('rule constants mirror @qc/contracts', () => {
  it.each([
    'FILTER_TYPES',
    'PATTERN_TYPES',
    'FILTER_PATTERN_TYPES',
    'FILTER_ACTIONS',
    'APANEL_ACTIONS',
    'SYSTEM_RULE_ACTIONS',
    'RSPAMD_LIMITS',
  ] as const)('%s', (name) => {
    expect(mirrored[name]).toEqual(contracts[name]);
  });

  it('one list per family, each a list Rspamd fetches', () => {
    expect(Object.values(mirrored.FILTER_LISTS).every((l) => contracts.RSPAMD_LISTS.includes(l))).toBe(true);
    expect(Object.keys(mirrored.FILTER_LISTS)).toEqual([...contracts.FILTER_TYPES]);
  });
});
