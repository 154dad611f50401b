import {
  ADDRESSES_MAX as CONTRACT_ADDRESSES_MAX,
  DIRECTORY_REFUSALS as CONTRACT_REFUSALS,
  DIRECTORY_TEST_OUTCOMES as CONTRACT_OUTCOMES,
  DIRECTORY_ADDRESS_REASONS as CONTRACT_REASONS,
  DOMAIN_DESCRIPTION_MAX as CONTRACT_DESCRIPTION_MAX,
  MFA_FILTERS as CONTRACT_MFA_FILTERS,
  NAME_MAX as CONTRACT_NAME_MAX,
  USER_ORDERINGS as CONTRACT_ORDERINGS,
  USERNAME_MAX as CONTRACT_USERNAME_MAX,
  USERNAME_PATTERN as CONTRACT_USERNAME_PATTERN,
  USER_SOURCES as CONTRACT_SOURCES,
  UserCreate,
} from '@qc/contracts';
import { DIRECTORY_ADDRESS_REASONS, DIRECTORY_REFUSALS, DIRECTORY_TEST_OUTCOMES } from '../directory/directory.types';
import { DOMAIN_DESCRIPTION_MAX } from '../domains/domains.types';
import { isValidEmail } from './user-form';
import { readUserFilters, toUserListQuery, writeUserFilters } from './users.filters';
import {
  ADDRESSES_MAX,
  MFA_FILTERS,
  NAME_MAX,
  USER_ORDERINGS,
  USER_SOURCES,
  USERNAME_MAX,
  USERNAME_PATTERN,
} from './users.types';

// The front end mirrors these instead of importing them: @qc/contracts builds zod schemas when loaded.
describe('mirrors of @qc/contracts', () => {
  it('lists, limits and patterns are the contract’s', () => {
    expect([...USER_ORDERINGS].sort()).toEqual([...CONTRACT_ORDERINGS].sort());
    expect([...MFA_FILTERS].sort()).toEqual([...CONTRACT_MFA_FILTERS].sort());
    expect([USERNAME_MAX, NAME_MAX, DOMAIN_DESCRIPTION_MAX]).toEqual([
      CONTRACT_USERNAME_MAX,
      CONTRACT_NAME_MAX,
      CONTRACT_DESCRIPTION_MAX,
    ]);
    expect(USERNAME_PATTERN.source).toBe(CONTRACT_USERNAME_PATTERN.source);
  });

  it('issue 31: account sources, the addresses limit, the directory test’s outcomes, refusals and reasons', () => {
    expect([...USER_SOURCES].sort()).toEqual([...CONTRACT_SOURCES].sort());
    expect(ADDRESSES_MAX).toBe(CONTRACT_ADDRESSES_MAX);
    expect([...DIRECTORY_TEST_OUTCOMES].sort()).toEqual([...CONTRACT_OUTCOMES].sort());
    expect([...DIRECTORY_REFUSALS].sort()).toEqual([...CONTRACT_REFUSALS].sort());
    expect([...DIRECTORY_ADDRESS_REASONS].sort()).toEqual([...CONTRACT_REASONS].sort());
  });

  it.each([
    'jane@a.example',
    'j.o+tag@sub.b-c.example',
    'a@b.co',
    'x@y',
    'a..b@c.example',
    '.a@b.example',
    'a b@c.example',
    'a@-b.example',
    'ann@bücher.example',
    'Ann@BÜCHER.Example',
    `${'a'.repeat(64)}@b.example`,
    `${'a'.repeat(65)}@b.example`,
    `${'é'.repeat(33)}@b.example`,
  ])('the e-mail check agrees with the API’s: %s', (email) => {
    const api = UserCreate.safeParse({ email, role: 'user' }).success;
    expect(isValidEmail(email)).toBe(api);
  });
});

describe('users list filters in the URL', () => {
  it('round-trips, and anything invalid falls back to its default', () => {
    const params = new URLSearchParams(
      'q=jan&role=admin&domain=d1&active=false&mfa=required&ordering=-date_joined&cursor=c2',
    );
    const filters = readUserFilters(params);
    expect(writeUserFilters(filters).toString()).toBe(params.toString());
    expect(readUserFilters(new URLSearchParams('role=root&active=maybe&mfa=x&ordering=name'))).toEqual(
      readUserFilters(new URLSearchParams('')),
    );
    // A domain_admin's query never names a domain (the API scopes theirs).
    expect(toUserListQuery(filters, 50, false)).not.toHaveProperty('domain');
    expect(toUserListQuery(filters, 50, true)).toMatchObject({ domain: 'd1', is_active: 'false', page_size: '50' });
  });
});
