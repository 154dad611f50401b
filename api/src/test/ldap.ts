import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Attribute, Change, Client, PresenceFilter } from 'ldapts';
import { REPO_ROOT, type LdapConfig } from '../config';

/**
 * The test directory: the slapd of scripts/ldap.sh (npm test starts it; by hand:
 * `bash scripts/ldap.sh start`), seeded with test/ldap/seed.ldif. The api tests run twice at once
 * (SQLite and PostgreSQL) against that one server and change what is in it, so each test file works
 * in a subtree of its own, ou=t-<random>,dc=example,dc=com, holding a copy of the seed's people and
 * groups (the seed stays the one source), removed by cleanup().
 */
export const TEST_LDAP_URL = process.env.QC_TEST_LDAP_URL || 'ldap://127.0.0.1:55389';
export const TEST_LDAPS_URL = process.env.QC_TEST_LDAPS_URL || 'ldaps://127.0.0.1:55636';
export const TEST_LDAP_CA_FILE = process.env.QC_TEST_LDAP_CA_FILE || '/tmp/qc-test-ldap/ca.pem';
export const SUFFIX = 'dc=example,dc=com';
const ROOT_DN = `cn=admin,${SUFFIX}`;
const ROOT_PASSWORD = 'admin-secret';
/** The seed's service account (read access to the whole suffix). */
export const SERVICE_DN = `cn=qc-service,${SUFFIX}`;
export const SERVICE_PASSWORD = 'service-secret';
const SEED_FILE = path.join(REPO_ROOT, 'test', 'ldap', 'seed.ldif');
/** What tests write as a disabled account's lock (ppolicy: locked until an administrator unlocks). */
export const LOCKED_FOREVER = '000001010000Z';

export interface LdifRecord {
  dn: string;
  attributes: Record<string, string[]>;
}

/** The LDIF content records of a file (RFC 2849 as the seed uses it: comments, folding, `::` base64). */
export function parseLdif(text: string): LdifRecord[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const unfolded: string[] = [];
  for (const line of lines) {
    if (line.startsWith('#')) continue;
    if (line.startsWith(' ') && unfolded.length && unfolded[unfolded.length - 1] !== '') {
      unfolded[unfolded.length - 1] += line.slice(1);
    } else unfolded.push(line);
  }
  const records: LdifRecord[] = [];
  let current: LdifRecord | null = null;
  for (const line of [...unfolded, '']) {
    if (line.trim() === '') {
      if (current) records.push(current);
      current = null;
      continue;
    }
    const m = /^([A-Za-z][\w;-]*)(::?)\s?(.*)$/.exec(line);
    if (!m) throw new Error(`seed LDIF: cannot read the line ${JSON.stringify(line)}`);
    const [, name, sep, raw] = m as unknown as [string, string, string, string];
    const value = sep === '::' ? Buffer.from(raw, 'base64').toString('utf8') : raw;
    if (name.toLowerCase() === 'dn') current = { dn: value, attributes: {} };
    else if (!current) throw new Error(`seed LDIF: ${name} before any dn`);
    else (current.attributes[name] ??= []).push(value);
  }
  return records;
}

/** The seed, read once. */
let seed: LdifRecord[] | undefined;
export function seedRecords(): LdifRecord[] {
  seed ??= parseLdif(readFileSync(SEED_FILE, 'utf8'));
  return seed;
}

/** A seed person's password (their userPassword in the seed: `<uid>-pass`). */
export function seedPassword(uid: string): string {
  const record = seedRecords().find((r) => r.attributes.uid?.[0] === uid);
  const password = record?.attributes.userPassword?.[0];
  if (!password) throw new Error(`no person ${uid} in the seed`);
  return password;
}

async function asRoot<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ url: TEST_LDAP_URL, timeout: 5000, connectTimeout: 2000 });
  try {
    await client.bind(ROOT_DN, ROOT_PASSWORD);
    return await work(client);
  } finally {
    await client.unbind().catch(() => {});
  }
}

export interface TestDirectory {
  /** The directory settings for this subtree: plain ldap://, the service account, the seed's groups. */
  config: LdapConfig;
  /** The same as QC_LDAP_* variables (for createTestEnv's overrides, so loadConfig builds them). */
  env: Record<string, string>;
  /** ou=t-<random>,dc=example,dc=com */
  base: string;
  /** ou=people,<base> and ou=groups,<base> */
  userBase: string;
  groupBase: string;
  /** The DN of a person (by uid) or of a group (by cn) of this subtree. */
  dn(uid: string): string;
  group(cn: string): string;
  /** A seed person's password (`<uid>-pass`). */
  password(uid: string): string;
  /** A group's members (uids) become exactly these; none: the group keeps an empty member. */
  setGroupMembers(cn: string, uids: string[]): Promise<void>;
  addToGroup(cn: string, uid: string): Promise<void>;
  removeFromGroup(cn: string, uid: string): Promise<void>;
  /** Locks the account (ppolicy pwdAccountLockedTime 000001010000Z: slapd refuses its binds). */
  disable(uid: string): Promise<void>;
  enable(uid: string): Promise<void>;
  deletePerson(uid: string): Promise<void>;
  setPassword(uid: string, password: string): Promise<void>;
  /** Replaces an attribute of a person (no values: removes it), e.g. mail or mailAlternateAddress. */
  setAttribute(uid: string, attribute: string, values: string[]): Promise<void>;
  /** Adds a person under ou=people (inetOrgPerson + mailRecipient; password `<uid>-pass` unless given). */
  addPerson(uid: string, attributes?: Record<string, string | string[]>): Promise<string>;
  /** Removes the subtree. */
  cleanup(): Promise<void>;
}

/**
 * A fresh copy of the seed's people and groups under ou=t-<random>,dc=example,dc=com. Fails, with
 * what to do, when the test directory does not answer: a directory test is never skipped.
 */
export async function createTestDirectory(overrides: Partial<LdapConfig> = {}): Promise<TestDirectory> {
  const id = `t-${randomBytes(6).toString('hex')}`;
  const base = `ou=${id},${SUFFIX}`;
  const moved = (dn: string) => dn.replace(/,dc=example,dc=com$/i, `,${base}`);
  const userBase = `ou=people,${base}`;
  const groupBase = `ou=groups,${base}`;
  const dn = (uid: string) => `uid=${uid},${userBase}`;
  const group = (cn: string) => `cn=${cn},${groupBase}`;

  const copied = seedRecords().filter((r) => /(^|,)ou=(people|groups),dc=example,dc=com$/i.test(r.dn));
  try {
    await asRoot(async (client) => {
      await client.add(base, { objectClass: ['organizationalUnit'], ou: [id] });
      for (const record of copied) {
        const attributes = { ...record.attributes };
        for (const name of ['member', 'uniqueMember']) {
          if (attributes[name]) attributes[name] = attributes[name].map(moved);
        }
        await client.add(moved(record.dn), attributes);
      }
    });
  } catch (err) {
    throw new Error(
      `The test directory (OpenLDAP) at ${TEST_LDAP_URL} could not be set up: ${(err as Error).message}. ` +
        'Start it with `bash scripts/ldap.sh start` (npm test does; QC_TEST_LDAP_URL points elsewhere).',
      { cause: err },
    );
  }

  const caFile = existsSync(TEST_LDAP_CA_FILE) ? TEST_LDAP_CA_FILE : null;
  const config: LdapConfig = {
    url: TEST_LDAP_URL,
    startTls: false,
    caFile,
    ca: caFile ? readFileSync(caFile, 'utf8') : null,
    bindDn: SERVICE_DN,
    bindPassword: SERVICE_PASSWORD,
    userBase,
    userFilter: '(|(mail={login})(uid={login}))',
    aliasAttrs: ['mailAlternateAddress', 'proxyAddresses'],
    groupBase: null,
    adminGroup: group('qc-admins'),
    domainAdminGroup: group('qc-domain-admins'),
    timeoutMs: 3000,
    poolSize: 2,
    ...overrides,
  };
  const env: Record<string, string> = {
    QC_LDAP_URL: config.url,
    QC_LDAP_STARTTLS: String(config.startTls),
    QC_LDAP_USER_BASE: config.userBase,
    QC_LDAP_USER_FILTER: config.userFilter,
    QC_LDAP_ALIAS_ATTRS: config.aliasAttrs.join(','),
    QC_LDAP_TIMEOUT_MS: String(config.timeoutMs),
    QC_LDAP_POOL_SIZE: String(config.poolSize),
  };
  const optional: [string, string | null][] = [
    ['QC_LDAP_CA_FILE', config.caFile],
    ['QC_LDAP_BIND_DN', config.bindDn],
    ['QC_LDAP_BIND_PASSWORD', config.bindPassword],
    ['QC_LDAP_GROUP_BASE', config.groupBase],
    ['QC_LDAP_ADMIN_GROUP', config.adminGroup],
    ['QC_LDAP_DOMAIN_ADMIN_GROUP', config.domainAdminGroup],
  ];
  for (const [name, value] of optional) if (value) env[name] = value;

  const modify = (target: string, operation: Change['operation'], type: string, values: string[]) =>
    asRoot((client) => client.modify(target, new Change({ operation, modification: new Attribute({ type, values }) })));

  return {
    config,
    env,
    base,
    userBase,
    groupBase,
    dn,
    group,
    password: seedPassword,
    setGroupMembers: (cn, uids) => modify(group(cn), 'replace', 'member', uids.length ? uids.map(dn) : ['']),
    addToGroup: (cn, uid) => modify(group(cn), 'add', 'member', [dn(uid)]),
    removeFromGroup: (cn, uid) => modify(group(cn), 'delete', 'member', [dn(uid)]),
    disable: (uid) => modify(dn(uid), 'replace', 'pwdAccountLockedTime', [LOCKED_FOREVER]),
    enable: (uid) => modify(dn(uid), 'replace', 'pwdAccountLockedTime', []),
    deletePerson: (uid) => asRoot((client) => client.del(dn(uid))),
    setPassword: (uid, password) => modify(dn(uid), 'replace', 'userPassword', [password]),
    setAttribute: (uid, attribute, values) => modify(dn(uid), 'replace', attribute, values),
    async addPerson(uid, attributes = {}) {
      const entry: Record<string, string[]> = {
        objectClass: ['inetOrgPerson', 'mailRecipient'],
        uid: [uid],
        cn: [uid],
        sn: [uid],
        userPassword: [`${uid}-pass`],
      };
      for (const [name, value] of Object.entries(attributes)) entry[name] = Array.isArray(value) ? value : [value];
      await asRoot((client) => client.add(dn(uid), entry));
      return dn(uid);
    },
    async cleanup() {
      await asRoot(async (client) => {
        const { searchEntries } = await client.search(base, {
          scope: 'sub',
          filter: new PresenceFilter({ attribute: 'objectClass' }),
          attributes: ['1.1'],
        });
        // Leaves first: the deepest DNs go before their parents.
        const dns = searchEntries.map((e) => e.dn).sort((a, b) => b.split(',').length - a.split(',').length);
        for (const entry of dns) await client.del(entry);
      });
    },
  };
}

/** The host and port of an ldap:// or ldaps:// URL. */
export function urlAddress(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) || (u.protocol === 'ldaps:' ? 636 : 389) };
}

export interface TcpRelay {
  /** Where it listens. */
  host: string;
  port: number;
  /** Connections open now (client side), and ever accepted. */
  open(): number;
  accepted(): number;
  /** Resolves when no connection is open (at most `ms`); the count left open. */
  drained(ms?: number): Promise<number>;
  /** Stops listening and cuts every connection: the directory "goes down" (the port then refuses). */
  close(): Promise<void>;
}

async function listen(server: net.Server, host: string, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}

function relayOf(
  server: net.Server,
  host: string,
  port: number,
  sockets: Set<net.Socket>,
  count: () => number,
): TcpRelay {
  return {
    host,
    port,
    open: () => sockets.size,
    accepted: count,
    async drained(ms = 2000) {
      const until = Date.now() + ms;
      while (sockets.size && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      return sockets.size;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A TCP relay to `target` listening on `host` (default 127.0.0.1): counts the connections the
 * console opens and sees them close; on 127.0.0.2 it is a host name the test certificate does not
 * name (127.0.0.1 and localhost only), for the mismatch tests. `port`: a given one (a relay
 * started again where a closed one was: the directory back up).
 */
export async function tcpRelay(
  target: { host: string; port: number },
  host = '127.0.0.1',
  port = 0,
): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    sockets.add(client);
    const upstream = net.connect(target.port, target.host);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  return relayOf(server, host, await listen(server, host, port), sockets, () => accepted);
}

/** A server that accepts connections and never answers: a directory that hangs. */
export async function silentServer(host = '127.0.0.1'): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.resume(); // reads and ignores what comes
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  return relayOf(server, host, await listen(server, host), sockets, () => accepted);
}

/** A port on 127.0.0.1 nothing listens on (taken, then given back). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server, '127.0.0.1');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
