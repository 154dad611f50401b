// The contract's run-time values may be loaded here (a test, not the bundle).
import {
  ApanelFilterUpdate,
  DomainUpdate,
  HISTORY_ACTIONS as CONTRACT_ACTIONS,
  HISTORY_CATEGORIES as CONTRACT_CATEGORIES,
  HISTORY_TARGET_KINDS,
  RspamdFilterUpdate,
  SystemRuleUpdate,
  UserUpdate,
} from '@qc/contracts';
import { mailEn, mailFr } from '../../i18n';
import {
  actionsOf,
  HISTORY_ACTIONS,
  HISTORY_CATEGORY_ACTIONS,
  readHistoryFilters,
  toHistoryQuery,
  writeHistoryFilters,
} from './history.filters';

const read = (search: string) => readHistoryFilters(new URLSearchParams(search));

test('the categories mirror the contract’s, action for action', () => {
  expect(HISTORY_CATEGORY_ACTIONS).toEqual(CONTRACT_CATEGORIES);
  expect([...HISTORY_ACTIONS].sort()).toEqual([...CONTRACT_ACTIONS].sort());
  expect(actionsOf('')).toEqual(HISTORY_ACTIONS);
  expect(actionsOf('security')).toEqual(CONTRACT_CATEGORIES.security);
});

test('the category is read from and written to the URL; an action outside it falls back to any', () => {
  expect(read('category=administration&action=domain_delete')).toMatchObject({
    category: 'administration',
    action: 'domain_delete',
  });
  expect(read('category=security&action=download')).toMatchObject({ category: 'security', action: '' });
  expect(read('category=bogus&action=download')).toMatchObject({ category: '', action: 'download' });
  expect(read('action=password_changed')).toMatchObject({ category: '', action: 'password_changed' });
  const filters = read('category=administration&action=user_update&user=a%40b.example');
  expect(writeHistoryFilters(filters).toString()).toBe('category=administration&action=user_update&user=a%40b.example');
  expect(toHistoryQuery(filters, 50)).toEqual({
    category: 'administration',
    action: 'user_update',
    user: 'a@b.example',
    page_size: '50',
  });
});

test('every action and every field an update can change has its words in French and in English', () => {
  for (const lang of [mailFr, mailEn]) {
    expect(Object.keys(lang.history.actions).sort()).toEqual([...CONTRACT_ACTIONS].sort());
    expect(Object.keys(lang.history.categories).sort()).toEqual(Object.keys(CONTRACT_CATEGORIES).sort());
    const fields = [...Object.keys(UserUpdate.shape), ...Object.keys(DomainUpdate.shape)];
    expect(fields.filter((f) => !(f in lang.history.fields))).toEqual([]);
    const ruleFields = [RspamdFilterUpdate, ApanelFilterUpdate, SystemRuleUpdate].flatMap((s) => Object.keys(s.shape));
    expect(ruleFields.filter((f) => !(f in lang.history.rule_fields))).toEqual([]);
    expect(Object.keys(lang.history.target_kinds).sort()).toEqual([...HISTORY_TARGET_KINDS].sort());
  }
  // Translated, not copied: no English word left in the French actions.
  const same = CONTRACT_ACTIONS.filter((a) => mailFr.history.actions[a] === mailEn.history.actions[a]);
  expect(same).toEqual([]);
});
