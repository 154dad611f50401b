import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, ENV_VARIABLES, loadConfig, misspeltVariables, REPO_ROOT } from './config';
import { usableCpus } from './lib/cpus';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qc-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('secure defaults, paths relative to the cwd', () => {
  const c = loadConfig({}, dir);
  expect(c).toMatchObject({
    port: 8080,
    host: '127.0.0.1',
    workers: Math.min(usableCpus(), 8),
    dataDir: path.join(dir, 'data'),
    database: { kind: 'sqlite', file: path.join(dir, 'data', 'qconsole.sqlite') },
    accessTtl: 300,
    refreshTtl: 14 * 24 * 3600,
    sessionMaxAge: 30 * 24 * 3600,
    refreshGrace: 30,
    partialTtl: 300,
    loginRate: { accountMax: 10, ipMax: 100, windowSeconds: 900 },
    mfaRate: { accountMax: 10, ipMax: 100, maxFailures: 5 },
    reauthMax: 10,
    emailChangeTtl: 24 * 3600,
    invitationTtl: 72 * 3600,
    feedbackRate: { max: 10, windowSeconds: 3600 },
    smtpUrl: null,
    mailFrom: 'quarantine-console@localhost',
    trustedProxies: [],
    remotesFile: null,
    staticDir: path.join(REPO_ROOT, 'host', 'dist'),
    remotesDir: REPO_ROOT,
    argon2: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
    publicUrl: 'http://127.0.0.1:8080',
  });
});

test('SQLite without QC_SECRET_KEY: a key file is generated once, mode 0600', () => {
  const first = loadConfig({ QC_DATA_DIR: 'state' }, dir);
  const file = path.join(dir, 'state', 'secret.key');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
  expect(readFileSync(file, 'utf8').trim()).toBe(first.secretKey);
  expect(loadConfig({ QC_DATA_DIR: 'state' }, dir).secretKey).toBe(first.secretKey);
});

test('the key file is created alone (no draft left beside it), and an empty one is refused by name', () => {
  loadConfig({ QC_DATA_DIR: 'state' }, dir);
  expect(readdirSync(path.join(dir, 'state'))).toEqual(['secret.key']);
  // What the old code left after a full disk: an empty file, refused by name rather than used.
  mkdirSync(path.join(dir, 'other'));
  writeFileSync(path.join(dir, 'other', 'secret.key'), '');
  expect(() => loadConfig({ QC_DATA_DIR: 'other' }, dir)).toThrow(/secret\.key: the secret key must be at least 32/);
});

test('a QC_ variable one or two letters from a setting is pointed out; the tools’ own are not', () => {
  expect(
    misspeltVariables({ QC_DATABSE_URL: 'postgres://db/qc', QC_PG_PORT: '55432', QC_API_URL: 'x', QC_PORT: '1' }),
  ).toEqual(['QC_DATABSE_URL is not a setting of the api: did you mean QC_DATABASE_URL? It is ignored.']);
});

test('an example admin password is refused', () => {
  expect(() => loadConfig({ QC_ADMIN_PASSWORD: 'change-me-admin' }, dir)).toThrow(
    /QC_ADMIN_PASSWORD: must not be a placeholder/,
  );
});

test('PostgreSQL requires QC_SECRET_KEY (replicas share it)', () => {
  expect(() => loadConfig({ QC_DATABASE_URL: 'postgres://db/qc' }, dir)).toThrow(/QC_SECRET_KEY/);
  const c = loadConfig({ QC_DATABASE_URL: 'postgres://db/qc', QC_SECRET_KEY: 'Zq3v8Kp1Lm5Xr9Tb2Nw6Yc4Hd7Fj0Gs1' }, dir);
  expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://db/qc', poolMax: 10 });
});

test("an example's placeholder key or token is refused though long enough (it is public)", () => {
  for (const [key, value] of [
    ['QC_SECRET_KEY', 'change-me-to-64-random-characters'],
    ['QC_SECRET_KEY', 'k'.repeat(40)],
    ['QC_INGEST_TOKEN', 'change-me-too-change-me-too'],
    ['QC_INGEST_TOKEN', 'my-secret-ingest-token-2026'],
  ] as const) {
    expect(() => loadConfig({ [key]: value }, dir)).toThrow(
      new RegExp(`${key}: must (not be a placeholder|be random)`),
    );
  }
});

test('bad values are all reported, by variable', () => {
  let error: unknown;
  try {
    loadConfig(
      {
        QC_PORT: 'eighty',
        QC_DATABASE_URL: 'mysql://x',
        QC_SECRET_KEY: 'short',
        QC_TRUSTED_PROXIES: '10.0.0.1, not-an-ip',
        QC_ADMIN_EMAIL: 'nope',
        QC_ADMIN_PASSWORD: 'short',
        QC_REFRESH_GRACE: '-1',
      },
      dir,
    );
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const vars = (error as ConfigError).problems.map((p) => p.split(':')[0]).sort();
  expect(vars).toEqual([
    'QC_ADMIN_EMAIL',
    'QC_ADMIN_PASSWORD',
    'QC_DATABASE_URL',
    'QC_PORT',
    'QC_REFRESH_GRACE',
    'QC_SECRET_KEY',
    'QC_TRUSTED_PROXIES',
  ]);
});

test('a Rspamd controller URL with a user name or password is refused, saying why', () => {
  for (const url of ['http://u:p@127.0.0.1:11334', 'https://admin@rspamd.example/']) {
    let error: unknown;
    try {
      loadConfig({ QC_RSPAMD_CONTROLLER_URL: url }, dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(
        /^QC_RSPAMD_CONTROLLER_URL: must not hold a user name or password.*QC_RSPAMD_CONTROLLER_PASSWORD/,
      ),
    ]);
  }
  // An @ past the host (a path) is no user info.
  const c = loadConfig({ QC_RSPAMD_CONTROLLER_URL: 'http://127.0.0.1:11334/x@y/' }, dir);
  expect(c.rspamdController.url).toBe('http://127.0.0.1:11334/x@y');
});

test('tunables and lists are parsed; empty values count as unset', () => {
  const c = loadConfig(
    {
      QC_PORT: '',
      QC_TRUSTED_PROXIES: '10.0.0.0/8, ::1,loopback',
      QC_LOGIN_RATE_ACCOUNT_MAX: '3',
      QC_REFRESH_GRACE: '0',
      QC_REMOTES_FILE: 'conf/remotes.json',
      QC_ADMIN_EMAIL: 'Boss@Example.com',
      QC_PUBLIC_URL: 'https://console.example/',
    },
    dir,
  );
  expect(c.port).toBe(8080);
  expect(c.trustedProxies).toEqual(['10.0.0.0/8', '::1', 'loopback']);
  expect(c.loginRate.accountMax).toBe(3);
  expect(c.refreshGrace).toBe(0);
  expect(c.remotesFile).toBe(path.join(dir, 'conf', 'remotes.json'));
  expect(c.admin.email).toBe('boss@example.com');
  expect(c.publicUrl).toBe('https://console.example');
});

test('.env.example documents every variable, and nothing else', () => {
  const documented = [
    ...readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8').matchAll(/^(QC_[A-Z0-9_]+)=/gm),
  ].map((m) => m[1]);
  expect(documented.sort()).toEqual([...ENV_VARIABLES].sort());
});

describe('the directory (QC_LDAP_*)', () => {
  const base = { QC_LDAP_URL: 'ldaps://dc1.example.com', QC_LDAP_USER_BASE: 'ou=people,dc=example,dc=com' };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env, dir);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).problems;
    }
    return [];
  };

  test('unset URL: no directory, whatever else is set', () => {
    expect(loadConfig({}, dir).ldap).toBeNull();
    expect(loadConfig({ QC_LDAP_USER_BASE: 'ou=people,dc=example,dc=com' }, dir).ldap).toBeNull();
  });

  test('defaults, and every setting parsed', () => {
    expect(loadConfig(base, dir).ldap).toEqual({
      url: 'ldaps://dc1.example.com',
      startTls: false,
      caFile: null,
      ca: null,
      bindDn: null,
      bindPassword: null,
      userBase: 'ou=people,dc=example,dc=com',
      userFilter: '(|(mail={login})(uid={login}))',
      aliasAttrs: ['mailAlternateAddress', 'proxyAddresses'],
      groupBase: null,
      adminGroup: null,
      domainAdminGroup: null,
      timeoutMs: 3000,
      poolSize: 4,
    });
    writeFileSync(path.join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const c = loadConfig(
      {
        QC_LDAP_URL: 'ldap://ldap.example.com:10389/',
        QC_LDAP_STARTTLS: 'true',
        QC_LDAP_CA_FILE: 'ca.pem',
        QC_LDAP_BIND_DN: 'cn=svc,dc=example,dc=com',
        QC_LDAP_BIND_PASSWORD: 's3cret',
        QC_LDAP_USER_BASE: 'ou=people,dc=example,dc=com',
        QC_LDAP_USER_FILTER: '(&(objectClass=user)(sAMAccountName={login}))',
        QC_LDAP_ALIAS_ATTRS: ' proxyAddresses , otherMailbox,proxyAddresses',
        QC_LDAP_GROUP_BASE: 'ou=groups,dc=example,dc=com',
        QC_LDAP_ADMIN_GROUP: 'cn=admins,ou=groups,dc=example,dc=com',
        QC_LDAP_DOMAIN_ADMIN_GROUP: 'cn=domain-admins,ou=groups,dc=example,dc=com',
        QC_LDAP_TIMEOUT_MS: '1500',
        QC_LDAP_POOL_SIZE: '2',
      },
      dir,
    ).ldap;
    expect(c).toMatchObject({
      url: 'ldap://ldap.example.com:10389',
      startTls: true,
      caFile: path.join(dir, 'ca.pem'),
      ca: expect.stringContaining('BEGIN CERTIFICATE'),
      bindDn: 'cn=svc,dc=example,dc=com',
      bindPassword: 's3cret',
      userFilter: '(&(objectClass=user)(sAMAccountName={login}))',
      aliasAttrs: ['proxyAddresses', 'otherMailbox'],
      groupBase: 'ou=groups,dc=example,dc=com',
      adminGroup: 'cn=admins,ou=groups,dc=example,dc=com',
      domainAdminGroup: 'cn=domain-admins,ou=groups,dc=example,dc=com',
      timeoutMs: 1500,
      poolSize: 2,
    });
  });

  test('a URL that is not ldap:// or ldaps:// (or carries more than a host and port) is refused', () => {
    for (const url of [
      'http://dc1.example.com',
      'dc1.example.com',
      'ldap://',
      'ldap://user:pw@dc1.example.com',
      'ldap://dc1.example.com/dc=example,dc=com',
      'ldap://dc1.example.com?uid',
    ]) {
      expect(problems({ ...base, QC_LDAP_URL: url })).toEqual([
        expect.stringMatching(/^QC_LDAP_URL: must be an ldap:\/\/ or ldaps:\/\/ URL/),
      ]);
    }
  });

  test('a URL without a user base is refused; so is StartTLS on ldaps://, and half a service account', () => {
    expect(problems({ QC_LDAP_URL: 'ldaps://dc1.example.com' })).toEqual([
      expect.stringMatching(/^QC_LDAP_USER_BASE: required with QC_LDAP_URL/),
    ]);
    expect(problems({ ...base, QC_LDAP_STARTTLS: 'true' })).toEqual([
      expect.stringMatching(/^QC_LDAP_STARTTLS: StartTLS is for an ldap:\/\/ URL/),
    ]);
    expect(problems({ ...base, QC_LDAP_STARTTLS: 'maybe' })).toEqual([
      expect.stringMatching(/^QC_LDAP_STARTTLS: must be true or false/),
    ]);
    expect(problems({ ...base, QC_LDAP_BIND_DN: 'cn=svc,dc=example,dc=com' })).toEqual([
      'QC_LDAP_BIND_PASSWORD: required with QC_LDAP_BIND_DN',
    ]);
  });

  test('a user filter without {login}, or not a filter, is refused', () => {
    for (const filter of ['(uid=alice)', 'uid={login}', '(|(mail={login})(uid={login})', '(uid={login}))(']) {
      expect(problems({ ...base, QC_LDAP_USER_FILTER: filter })).toEqual([
        expect.stringMatching(/^QC_LDAP_USER_FILTER: must (contain \{login\}|be an LDAP filter)/),
      ]);
    }
  });

  test('a missing or unreadable CA file stops the start, by name', () => {
    expect(problems({ ...base, QC_LDAP_CA_FILE: 'nope.pem' })).toEqual([
      `QC_LDAP_CA_FILE: cannot read ${path.join(dir, 'nope.pem')} (ENOENT)`,
    ]);
    writeFileSync(path.join(dir, 'key.pem'), 'not a certificate');
    expect(problems({ ...base, QC_LDAP_CA_FILE: 'key.pem' })).toEqual([
      expect.stringMatching(/^QC_LDAP_CA_FILE: .*key\.pem holds no PEM certificate/),
    ]);
  });

  test('passwords never cross the network in clear: plain ldap:// only on loopback, else StartTLS', () => {
    const userBase = { QC_LDAP_USER_BASE: 'ou=people,dc=example,dc=com' };
    expect(problems({ ...userBase, QC_LDAP_URL: 'ldap://dc1.example.com' })).toEqual([
      expect.stringMatching(/^QC_LDAP_URL: ldap:\/\/ sends passwords in clear/),
    ]);
    for (const url of ['ldap://127.0.0.1:389', 'ldap://localhost', 'ldaps://dc1.example.com']) {
      expect(problems({ ...userBase, QC_LDAP_URL: url })).toEqual([]);
    }
    expect(problems({ ...userBase, QC_LDAP_URL: 'ldap://dc1.example.com', QC_LDAP_STARTTLS: 'true' })).toEqual([]);
  });

  test('timeouts (at most 3 s a step) and pool size are bounded', () => {
    expect(problems({ ...base, QC_LDAP_TIMEOUT_MS: '3001' })).toEqual([expect.stringMatching(/^QC_LDAP_TIMEOUT_MS:/)]);
    expect(problems({ ...base, QC_LDAP_POOL_SIZE: '0' })).toEqual([expect.stringMatching(/^QC_LDAP_POOL_SIZE:/)]);
  });
});
