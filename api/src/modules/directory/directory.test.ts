import { Client } from 'ldapts';
import type { LdapConfig } from '../../config';
import {
  closedPort,
  createTestDirectory,
  silentServer,
  tcpRelay,
  TEST_LDAP_URL,
  TEST_LDAPS_URL,
  urlAddress,
  type TestDirectory,
} from '../../test/ldap';
import { createDirectory, DirectoryUnavailableError, type Directory } from './directory';

// The real slapd of scripts/ldap.sh, in a subtree of this file's own (test/ldap/seed.ldif's people).
let dir: TestDirectory;
let directory: Directory;
const opened: Directory[] = [];
/** A directory client on other settings, closed after the test. */
function directoryWith(changes: Partial<LdapConfig>): Directory {
  const d = createDirectory({ ...dir.config, ...changes });
  opened.push(d);
  return d;
}

beforeAll(async () => {
  dir = await createTestDirectory();
  directory = createDirectory(dir.config);
});
afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(opened.splice(0).map((d) => d.close()));
});
afterAll(async () => {
  await directory?.close();
  await dir?.cleanup();
});

/** The error a call threw, and how long it took. */
async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const t0 = Date.now();
  try {
    await call();
  } catch (error) {
    return { error, ms: Date.now() - t0 };
  }
  throw new Error('the call did not fail');
}

describe('sign-in', () => {
  test('by address or uid, any case: the person with their aliases, role and names', async () => {
    const alice = await directory.authenticate('alice@example.com', 'alice-pass');
    expect(alice).toEqual({
      dn: dir.dn('alice'),
      mail: 'alice@example.com',
      aliases: ['alice.smith@example.com', 'sales@example.com', 'alice@elsewhere.test'],
      groups: [],
      role: 'user',
      disabled: false,
      first_name: 'Alice',
      last_name: 'Smith',
    });
    expect((await directory.authenticate('alice', 'alice-pass'))?.dn).toBe(dir.dn('alice'));
    expect((await directory.authenticate(' ALICE@Example.COM ', 'alice-pass'))?.dn).toBe(dir.dn('alice'));
  });

  test('a wrong password, an unknown login, a login two people share: null', async () => {
    expect(await directory.authenticate('alice@example.com', 'bob-pass')).toBeNull();
    expect(await directory.authenticate('alice@example.com', 'Alice-pass')).toBeNull();
    expect(await directory.authenticate('nobody@example.com', 'alice-pass')).toBeNull();
    expect(await directory.authenticate('team@example.com', 'ivan-pass')).toBeNull();
    expect(await directory.find('team@example.com')).toBeNull();
    // ...and the right one still signs in (wrong passwords lock nobody in the test directory).
    expect(await directory.authenticate('alice@example.com', 'alice-pass')).not.toBeNull();
  });

  test('an empty or blank password is refused before anything is sent (never an unauthenticated bind)', async () => {
    const bind = jest.spyOn(Client.prototype, 'bind');
    const search = jest.spyOn(Client.prototype, 'search');
    for (const password of ['', ' ', '\t\n']) {
      expect(await directory.authenticate('alice@example.com', password)).toBeNull();
    }
    expect(bind).not.toHaveBeenCalled();
    expect(search).not.toHaveBeenCalled();
    // The spies see the calls when there are some.
    expect(await directory.authenticate('alice@example.com', 'alice-pass')).not.toBeNull();
    expect(bind).toHaveBeenCalledWith(dir.dn('alice'), 'alice-pass');
  });

  test('a user bind is on a connection of its own, closed afterwards; close() ends the pool', async () => {
    const relay = await tcpRelay(urlAddress(TEST_LDAP_URL));
    try {
      const d = createDirectory({ ...dir.config, url: `ldap://127.0.0.1:${relay.port}`, poolSize: 1 });
      expect(await d.authenticate('bob', 'bob-pass')).not.toBeNull();
      expect(await d.authenticate('bob', 'wrong')).toBeNull();
      expect(relay.accepted()).toBe(3); // the pooled service connection, and one per user bind
      expect(await relay.drained(1000)).toBe(1); // only the pooled one is still open
      await d.close();
      expect(await relay.drained()).toBe(0);
      await expect(d.find('bob')).rejects.toBeInstanceOf(DirectoryUnavailableError);
    } finally {
      await relay.close();
    }
  });

  test('a non-ASCII login reaches the directory as UTF-8', async () => {
    // (mail is IA5String: ASCII only; uid and the names are UTF-8.)
    await dir.addPerson('jürgen', { mail: 'juergen@example.com', givenName: 'Jürgen', sn: 'Groß' });
    const person = await directory.authenticate('jürgen', 'jürgen-pass');
    expect(person).toMatchObject({ dn: dir.dn('jürgen'), mail: 'juergen@example.com', last_name: 'Groß' });
    expect((await directory.find('JÜRGEN'))?.dn).toBe(dir.dn('jürgen'));
    expect(await directory.find('jurgen')).toBeNull();
  });
});

describe('filter injection: the login is a value, never filter syntax', () => {
  const logins = [
    '*',
    '*@example.com',
    'a*',
    ')(uid=*))(|(uid=*',
    'alice)(|(uid=*',
    'alice)(uid=*)',
    '*)(userPassword=*',
    '\\2a',
    'alice\\29',
    'alice\0',
    '\0',
    'alice\0@example.com',
    'x'.repeat(1000),
    'x'.repeat(5000),
    '(uid=alice)',
  ];
  test.each(logins.map((login) => [JSON.stringify(login).slice(0, 40), login]))(
    '%s finds nobody and signs nobody in',
    async (_, login) => {
      expect(await directory.find(login)).toBeNull();
      for (const uid of ['alice', 'bob']) {
        expect(await directory.authenticate(login, `${uid}-pass`)).toBeNull();
      }
    },
  );
});

describe('addresses and groups', () => {
  test('Active Directory proxyAddresses (on slapd, with AD attributes): SMTP: is the primary without mail', async () => {
    const frank = await directory.find('frank');
    expect(frank).toMatchObject({
      mail: 'frank@example.com',
      aliases: ['f.jones@example.com', 'frank@elsewhere.test'],
      disabled: false,
    });
  });

  test('someone with no address in example.com is still found (the console refuses them)', async () => {
    expect(await directory.authenticate('erin', 'erin-pass')).toMatchObject({
      mail: 'erin@elsewhere.test',
      aliases: ['erin@other.test'],
    });
  });

  test('role by memberOf: admin wins over domain_admin; the groups are listed', async () => {
    const carol = await directory.authenticate('carol@example.com', 'carol-pass');
    expect(carol?.role).toBe('admin');
    expect(carol?.groups.sort()).toEqual([dir.group('qc-admins'), dir.group('qc-domain-admins')].sort());
    expect((await directory.find('bob'))?.role).toBe('domain_admin');
  });

  test('groups by a search of the group base (member and memberUid), DNs compared loosely', async () => {
    const staff = dir.group('qc-staff');
    const d = directoryWith({
      groupBase: dir.groupBase,
      adminGroup: staff.toUpperCase().replace(/,/g, ', '),
    });
    const alice = await d.find('alice');
    expect(alice?.groups).toEqual([staff]); // posixGroup memberUid: only the group base finds it
    expect(alice?.role).toBe('admin');
    const carol = await d.find('carol');
    expect(carol?.groups.sort()).toEqual([dir.group('qc-admins'), dir.group('qc-domain-admins')].sort());
    expect(carol?.role).toBe('domain_admin'); // qc-admins is no longer the admin group here
  });

  test('removed from the admin group: no longer admin at the next look-up', async () => {
    await dir.addPerson('grace', { mail: 'grace@example.com' });
    await dir.addToGroup('qc-admins', 'grace');
    expect((await directory.authenticate('grace', 'grace-pass'))?.role).toBe('admin');
    await dir.removeFromGroup('qc-admins', 'grace');
    expect((await directory.authenticate('grace', 'grace-pass'))?.role).toBe('user');
    expect((await directory.findByDn(dir.dn('grace')))?.role).toBe('user');
  });
});

describe('disabled and removed people', () => {
  test('disabled in the directory: its bind is refused, look-ups say disabled', async () => {
    expect(await directory.authenticate('dave', 'dave-pass')).toBeNull();
    expect((await directory.find('dave'))?.disabled).toBe(true);

    await dir.addPerson('heidi', { mail: 'heidi@example.com' });
    expect((await directory.authenticate('heidi', 'heidi-pass'))?.disabled).toBe(false);
    await dir.disable('heidi');
    expect(await directory.authenticate('heidi', 'heidi-pass')).toBeNull();
    expect((await directory.findByDn(dir.dn('heidi')))?.disabled).toBe(true);
    await dir.enable('heidi');
    expect((await directory.authenticate('heidi', 'heidi-pass'))?.disabled).toBe(false);
  });

  test('AD userAccountControl 0x2 and 389 DS nsAccountLock are read as disabled', async () => {
    await dir.addPerson('ivy', { objectClass: ['inetOrgPerson', 'qcTestAccount'], userAccountControl: '514' });
    await dir.addPerson('ken', { objectClass: ['inetOrgPerson', 'qcTestAccount'], nsAccountLock: 'TRUE' });
    expect((await directory.find('ivy'))?.disabled).toBe(true);
    expect((await directory.find('ken'))?.disabled).toBe(true);
    await dir.setAttribute('ivy', 'userAccountControl', ['512']);
    expect((await directory.find('ivy'))?.disabled).toBe(false);
  });

  test('removed, outside the user base, or not a DN: findByDn is null; a new password counts at once', async () => {
    await dir.addPerson('leo', { mail: 'leo@example.com' });
    expect((await directory.findByDn(dir.dn('leo')))?.mail).toBe('leo@example.com');
    await dir.setPassword('leo', 'new-secret');
    expect(await directory.authenticate('leo', 'leo-pass')).toBeNull();
    expect(await directory.authenticate('leo', 'new-secret')).not.toBeNull();
    await dir.deletePerson('leo');
    expect(await directory.findByDn(dir.dn('leo'))).toBeNull();
    expect(await directory.authenticate('leo', 'new-secret')).toBeNull();
    expect(await directory.findByDn('cn=qc-service,dc=example,dc=com')).toBeNull();
    expect(await directory.findByDn(dir.group('qc-admins'))).toBeNull();
    expect(await directory.findByDn(`uid=x=y,,${dir.userBase}`)).toBeNull();
    expect(await directory.findByDn('')).toBeNull();
  });
});

describe('the directory down, slow, or not who it says', () => {
  test('nothing listening: DirectoryUnavailableError at once', async () => {
    const d = directoryWith({ url: `ldap://127.0.0.1:${await closedPort()}` });
    const { error, ms } = await failure(() => d.authenticate('alice', 'alice-pass'));
    expect(error).toBeInstanceOf(DirectoryUnavailableError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(ms).toBeLessThan(1000);
    await expect(d.findByDn(dir.dn('alice'))).rejects.toBeInstanceOf(DirectoryUnavailableError);
  });

  test.each([
    ['ldap://', false],
    ['ldap:// + StartTLS', true],
    ['ldaps://', false],
  ])('no answer (%s): DirectoryUnavailableError after the timeout, the connection closed', async (kind, startTls) => {
    const silent = await silentServer();
    try {
      const scheme = kind.startsWith('ldaps') ? 'ldaps' : 'ldap';
      const d = directoryWith({ url: `${scheme}://127.0.0.1:${silent.port}`, startTls, timeoutMs: 300 });
      const { error, ms } = await failure(() => d.authenticate('alice', 'alice-pass'));
      expect(error).toBeInstanceOf(DirectoryUnavailableError);
      expect((error as DirectoryUnavailableError).timedOut).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(250);
      expect(ms).toBeLessThan(1500);
      expect(silent.accepted()).toBe(1); // no second try on a timeout
      expect(await silent.drained(1000)).toBe(0);
    } finally {
      await silent.close();
    }
  });

  test('a busy pool: a caller waits for a connection at most the timeout', async () => {
    const silent = await silentServer();
    try {
      const d = directoryWith({ url: `ldap://127.0.0.1:${silent.port}`, timeoutMs: 300, poolSize: 1 });
      const results = await Promise.allSettled([d.find('alice'), d.find('bob')]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(await silent.drained(1000)).toBe(0);
    } finally {
      await silent.close();
    }
  });

  test('several at once share the pool', async () => {
    const d = directoryWith({ poolSize: 2 });
    const people = await Promise.all(['alice', 'bob', 'carol', 'erin', 'frank', 'alice', 'bob'].map((u) => d.find(u)));
    expect(people.map((p) => p?.dn)).toEqual(['alice', 'bob', 'carol', 'erin', 'frank', 'alice', 'bob'].map(dir.dn));
  });

  test('the directory gone mid-run (connections cut, port closed): unavailable; back: used again', async () => {
    const target = urlAddress(TEST_LDAP_URL);
    const relay = await tcpRelay(target);
    const d = directoryWith({ url: `ldap://127.0.0.1:${relay.port}` });
    expect(await d.find('alice')).not.toBeNull();
    await relay.close();
    await expect(d.find('alice')).rejects.toBeInstanceOf(DirectoryUnavailableError);
    const back = await tcpRelay(target, '127.0.0.1', relay.port);
    try {
      expect((await d.authenticate('alice', 'alice-pass'))?.dn).toBe(dir.dn('alice'));
    } finally {
      await back.close();
    }
  });

  test('ldaps:// with the CA file, by IP or by the name in the certificate: works', async () => {
    const d = directoryWith({ url: TEST_LDAPS_URL });
    expect((await d.authenticate('alice', 'alice-pass'))?.dn).toBe(dir.dn('alice'));
    const byName = directoryWith({ url: TEST_LDAPS_URL.replace('//127.0.0.1:', '//localhost:') });
    expect((await byName.authenticate('alice', 'alice-pass'))?.dn).toBe(dir.dn('alice'));
  });

  test('StartTLS on the plain port with the CA file: works', async () => {
    const d = directoryWith({ startTls: true });
    expect((await d.authenticate('alice', 'alice-pass'))?.dn).toBe(dir.dn('alice'));
  });

  test('ldaps:// and StartTLS to a host name the certificate does not name: refused', async () => {
    const tlsRelay = await tcpRelay(urlAddress(TEST_LDAPS_URL), '127.0.0.2');
    const plainRelay = await tcpRelay(urlAddress(TEST_LDAP_URL), '127.0.0.2');
    try {
      for (const changes of [
        { url: `ldaps://127.0.0.2:${tlsRelay.port}` },
        { url: `ldap://127.0.0.2:${plainRelay.port}`, startTls: true },
      ]) {
        const d = directoryWith(changes);
        const { error } = await failure(() => d.authenticate('alice', 'alice-pass'));
        expect(error).toBeInstanceOf(DirectoryUnavailableError);
        expect((error as Error).message).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
      }
      expect(await tlsRelay.drained()).toBe(0);
      expect(await plainRelay.drained()).toBe(0);
    } finally {
      await tlsRelay.close();
      await plainRelay.close();
    }
  });

  test('ldaps:// without the CA file (the system CAs do not know the test CA): refused', async () => {
    const d = directoryWith({ url: TEST_LDAPS_URL, ca: null, caFile: null });
    const { error } = await failure(() => d.find('alice'));
    expect(error).toBeInstanceOf(DirectoryUnavailableError);
    expect((error as Error).message).toMatch(
      /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT/,
    );
  });

  test('a wrong service password: unavailable (the console cannot search), said so', async () => {
    const d = directoryWith({ bindPassword: 'not-the-password' });
    const { error } = await failure(() => d.authenticate('alice', 'alice-pass'));
    expect(error).toBeInstanceOf(DirectoryUnavailableError);
    expect((error as Error).message).toMatch(/service account was refused/);
  });
});
