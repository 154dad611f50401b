import type { Entry } from 'ldapts';
import {
  escapeFilterValue,
  normaliseDn,
  personAttributes,
  personFromEntry,
  userFilter,
  userFilterText,
} from './directory';
import { mapAddresses } from '../users/external-accounts.service';

// The pure parts: filters, an entry as a person (Active Directory's shapes, which slapd has no
// schema for), the addresses the console keeps. directory.test.ts runs the rest against slapd.

const config = {
  aliasAttrs: ['mailAlternateAddress', 'proxyAddresses'],
  adminGroup: 'CN=Quarantine Admins,OU=Groups,DC=corp,DC=example,DC=com',
  domainAdminGroup: 'cn=qc-domain-admins,ou=groups,dc=example,dc=com',
};

test('a login in the text of a filter: RFC 4515 escapes, non-ASCII as UTF-8 bytes', () => {
  expect(escapeFilterValue('alice@example.com')).toBe('alice@example.com');
  expect(escapeFilterValue('*')).toBe('\\2a');
  expect(escapeFilterValue(')(uid=*))(|(uid=*')).toBe('\\29\\28uid=\\2a\\29\\29\\28|\\28uid=\\2a');
  expect(escapeFilterValue('a\\b\0c')).toBe('a\\5cb\\00c');
  expect(escapeFilterValue('jürgen\n')).toBe('j\\c3\\bcrgen\\0a');
  expect(userFilterText('(|(mail={login})(uid={login}))', 'a*)')).toBe('(|(mail=a\\2a\\29)(uid=a\\2a\\29))');
});

test('the filter sent: the login is the value itself wherever {login} stands, never syntax', () => {
  const f = userFilter('(|(mail={login})(uid={login}))', ')(uid=*))(|(uid=*');
  expect(f.toString()).toBe(
    '(|(mail=\\29\\28uid=\\2a\\29\\29\\28|\\28uid=\\2a)(uid=\\29\\28uid=\\2a\\29\\29\\28|\\28uid=\\2a))',
  );
  // Active Directory's proxyAddresses value, a NOT, a substring: the login lands inside each.
  const ad = userFilter(
    '(&(objectClass=user)(!(cn=x))(|(sAMAccountName={login})(proxyAddresses=smtp:{login})(cn={login}*)))',
    'Jürgen',
  );
  expect(ad.toString()).toBe(
    '(&(objectClass=user)(!(cn=x))(|(sAMAccountName=Jürgen)(proxyAddresses=smtp:Jürgen)(cn=Jürgen*)))',
  );
  // A second login does not see the first (the template is parsed each time).
  expect(userFilter('(uid={login})', 'bob').toString()).toBe('(uid=bob)');
});

test('DNs compare in lower case without spaces around the separators', () => {
  expect(normaliseDn(' CN=Quarantine Admins, OU=Groups ,DC=corp, DC = example,DC=com ')).toBe(
    'cn=quarantine admins,ou=groups,dc=corp,dc=example,dc=com',
  );
});

test('the attributes asked for: names, addresses, groups, every kind of lock, the alias attributes', () => {
  expect(personAttributes({ aliasAttrs: ['otherMailbox', 'mail'] })).toEqual([
    'uid',
    'mail',
    'cn',
    'displayName',
    'givenName',
    'sn',
    'memberOf',
    'pwdAccountLockedTime',
    'userAccountControl',
    'nsAccountLock',
    'otherMailbox',
  ]);
});

test('an Active Directory entry: SMTP: is the primary without mail, only smtp: values count, groups by memberOf', () => {
  const entry: Entry = {
    dn: 'CN=Ann Lee,OU=Staff,DC=corp,DC=example,DC=com',
    sAMAccountName: 'alee',
    displayName: 'Ann Lee',
    givenName: 'Ann',
    SN: 'Lee',
    proxyAddresses: [
      'smtp:ann.lee@Example.com',
      'SMTP:Ann@Example.COM',
      'X500:/o=Corp/ou=Exchange/cn=Recipients/cn=alee',
      'sip:ann@example.com',
      'smtp:not an address',
      'smtp:ann@bücher.example',
      'smtp:ANN.LEE@example.com',
    ],
    memberOf: [
      'CN=Quarantine Admins, OU=Groups, DC=corp, DC=example, DC=com',
      'CN=Staff,OU=Groups,DC=corp,DC=example,DC=com',
    ],
    userAccountControl: '66048',
  };
  expect(personFromEntry(entry, config)).toEqual({
    dn: entry.dn,
    mail: 'ann@example.com',
    aliases: ['ann.lee@example.com', 'ann@xn--bcher-kva.example'],
    groups: [
      'CN=Quarantine Admins, OU=Groups, DC=corp, DC=example, DC=com',
      'CN=Staff,OU=Groups,DC=corp,DC=example,DC=com',
    ],
    role: 'admin',
    disabled: false,
    first_name: 'Ann',
    last_name: 'Lee',
  });
  // mail, when there is one, stays the primary; the SMTP: value is then an alias.
  expect(personFromEntry({ ...entry, mail: 'a.lee@example.com' }, config)).toMatchObject({
    mail: 'a.lee@example.com',
    aliases: ['ann.lee@example.com', 'ann@example.com', 'ann@xn--bcher-kva.example'],
  });
  // Disabled: ACCOUNTDISABLE (0x2) in userAccountControl.
  expect(personFromEntry({ ...entry, userAccountControl: '66050' }, config).disabled).toBe(true);
});

test('mail and aliases normalised, invalid ones dropped, no repeats, the primary not among the aliases', () => {
  const person = personFromEntry(
    {
      dn: 'uid=x,ou=people,dc=example,dc=com',
      mail: ['not-an-address', 'X@Example.com'],
      mailAlternateAddress: ['x@example.com', 'Y@EXAMPLE.com', 'y@example.com', '@example.com', 'z@'],
      cn: 'X Person',
    },
    config,
  );
  expect(person).toMatchObject({ mail: 'x@example.com', aliases: ['y@example.com'], role: 'user' });
  // No given name nor surname: the whole name (displayName, else cn) is the first name.
  expect(person).toMatchObject({ first_name: 'X Person', last_name: '' });
  // An alias attribute not configured is not read.
  expect(personFromEntry({ dn: 'uid=y', otherMailbox: 'o@example.com' }, config).aliases).toEqual([]);
});

test('the groups found under the group base join memberOf (no repeats); the role from either', () => {
  const person = personFromEntry(
    { dn: 'uid=bob,ou=people,dc=example,dc=com', memberOf: 'cn=staff,ou=groups,dc=example,dc=com' },
    config,
    ['CN=Staff,OU=Groups,DC=example,DC=com', 'cn=qc-domain-admins,ou=groups,dc=example,dc=com'],
  );
  expect(person.groups).toEqual([
    'cn=staff,ou=groups,dc=example,dc=com',
    'cn=qc-domain-admins,ou=groups,dc=example,dc=com',
  ]);
  expect(person.role).toBe('domain_admin');
});

test('every kind of lock reads as disabled', () => {
  const base = { dn: 'uid=z', mail: 'z@example.com' };
  expect(personFromEntry(base, config).disabled).toBe(false);
  expect(personFromEntry({ ...base, pwdAccountLockedTime: '000001010000Z' }, config).disabled).toBe(true);
  expect(personFromEntry({ ...base, nsAccountLock: 'true' }, config).disabled).toBe(true);
  expect(personFromEntry({ ...base, nsAccountLock: 'FALSE' }, config).disabled).toBe(false);
  expect(personFromEntry({ ...base, userAccountControl: '512' }, config).disabled).toBe(false);
  expect(personFromEntry({ ...base, userAccountControl: [] }, config).disabled).toBe(false);
});

test('mapAddresses keeps the console domains; the primary is mail if kept, else the first kept alias', () => {
  const alice = {
    mail: 'alice@example.com',
    aliases: ['alice.smith@example.com', 'sales@example.com', 'alice@elsewhere.test'],
  };
  expect(mapAddresses(alice, ['example.com'])).toEqual({
    primary: 'alice@example.com',
    addresses: [
      { address: 'alice@example.com', kept: true },
      { address: 'alice.smith@example.com', kept: true },
      { address: 'sales@example.com', kept: true },
      { address: 'alice@elsewhere.test', kept: false, reason: 'outside_domains' },
    ],
  });
  expect(mapAddresses(alice, ['elsewhere.test']).primary).toBe('alice@elsewhere.test');
  expect(mapAddresses(alice, ['other.test'])).toMatchObject({ primary: null });
  expect(mapAddresses({ mail: null, aliases: [] }, ['example.com'])).toEqual({ primary: null, addresses: [] });
  // Console domains as typed (U-label, capitals) meet the stored A-label form.
  expect(mapAddresses({ mail: 'ann@xn--bcher-kva.example', aliases: [] }, ['Bücher.Example']).primary).toBe(
    'ann@xn--bcher-kva.example',
  );
});
