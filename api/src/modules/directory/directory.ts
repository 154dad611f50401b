import {
  AndFilter,
  ApproximateFilter,
  EqualityFilter,
  ExtensibleFilter,
  FilterParser,
  GreaterThanEqualsFilter,
  InvalidDNSyntaxError,
  LessThanEqualsFilter,
  NoSuchObjectError,
  NotFilter,
  OrFilter,
  PresenceFilter,
  SubstringFilter,
  type Entry,
  type Filter,
} from 'ldapts';
import { emailAddress, NAME_MAX, type DirectorySettings, type Role } from '@qc/contracts';
import type { LdapConfig } from '../../config';
import { DirectoryUnavailableError, ServicePool, unavailable, verifyPassword } from './ldap-client';

export { DirectoryUnavailableError } from './ldap-client';

/** A person as the directory describes them, mapped to the console's terms. */
export interface DirectoryPerson {
  dn: string;
  /** The primary address (`mail`, else AD's `SMTP:` proxy address), normalised; null: none valid. */
  mail: string | null;
  /** The other addresses (QC_LDAP_ALIAS_ATTRS), normalised, without repeats or the primary. */
  aliases: string[];
  /** DNs of their groups: memberOf, and those under QC_LDAP_GROUP_BASE that list them. */
  groups: string[];
  role: Role;
  /** Locked or disabled in the directory (pwdAccountLockedTime, userAccountControl 0x2, nsAccountLock). */
  disabled: boolean;
  first_name: string;
  last_name: string;
}

export interface Directory {
  /** The configuration in force, secrets hidden. */
  settings(): DirectorySettings;
  /**
   * The person whose login and password these are; null when no single person has that login (none
   * or several) or the directory refused the password (wrong, or an account it locks). An empty or
   * whitespace-only password is null before anything is sent (never an unauthenticated bind).
   * The person may still be `disabled` (a directory that does not refuse their bind): the caller
   * refuses them. Throws DirectoryUnavailableError.
   */
  authenticate(login: string, password: string): Promise<DirectoryPerson | null>;
  /** The person with this login (the service account's search only); null: none, or several. */
  find(login: string): Promise<DirectoryPerson | null>;
  /** The person at this DN; null when it no longer exists or is no longer under QC_LDAP_USER_BASE. */
  findByDn(dn: string): Promise<DirectoryPerson | null>;
  close(): Promise<void>;
}

export interface DirectoryLog {
  warn(obj: object, msg: string): void;
}

/** Longest login looked up; a longer one is nobody's (no search is made). */
export const LOGIN_MAX = 1024;
const LOGIN = '{login}';

/**
 * A value in the string form of a filter (RFC 4515 §3): `*`, `(`, `)`, `\`, NUL, the other control
 * characters and every byte of a non-ASCII character as `\XX`. For logs and the Admin → Directory
 * test; the search itself puts the login into ldapts' filter objects (see userFilter).
 */
export function escapeFilterValue(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x20 || byte > 0x7e || '*()\\'.includes(char) ? `\\${byte.toString(16).padStart(2, '0')}` : char;
  }
  return out;
}

/** The user filter with the login in it, as text (escaped): what the search asks. */
export function userFilterText(template: string, login: string): string {
  return template.split(LOGIN).join(escapeFilterValue(login));
}

/**
 * The user filter for a login, as ldapts filter objects: the template (QC_LDAP_USER_FILTER) is
 * parsed with {login} in it, then the login is put into the values where {login} stands. The login
 * never goes through the filter parser, so no character of it can be read as filter syntax; on the
 * wire it is the assertion value itself (RFC 4511 encodes values, not their escaped text).
 */
export function userFilter(template: string, login: string): Filter {
  const put = (value: string) => value.split(LOGIN).join(login);
  const fill = (filter: Filter): Filter => {
    if (filter instanceof AndFilter || filter instanceof OrFilter) filter.filters.forEach(fill);
    else if (filter instanceof NotFilter) fill(filter.filter);
    else if (filter instanceof SubstringFilter) {
      filter.initial = put(filter.initial);
      filter.any = filter.any.map(put);
      filter.final = put(filter.final);
    } else if (filter instanceof EqualityFilter) {
      if (typeof filter.value === 'string') filter.value = put(filter.value);
    } else if (
      filter instanceof ApproximateFilter ||
      filter instanceof GreaterThanEqualsFilter ||
      filter instanceof LessThanEqualsFilter ||
      filter instanceof ExtensibleFilter
    ) {
      filter.value = put(filter.value);
    }
    return filter;
  };
  return fill(FilterParser.parseString(template));
}

/** A DN for comparing: lower case, no spaces around the separators. */
export function normaliseDn(dn: string): string {
  return dn
    .trim()
    .toLowerCase()
    .replace(/\s*(?<!\\)([,=+])\s*/g, '$1');
}

function isUnder(dn: string, base: string): boolean {
  const d = normaliseDn(dn);
  const b = normaliseDn(base);
  return d === b || d.endsWith(`,${b}`);
}

/** The values of an attribute, whatever the case of its name in the entry. */
export function attributeValues(entry: Entry, name: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined || key === 'dn') return [];
  const raw = entry[key]!;
  const list = Array.isArray(raw) ? raw : [raw];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v));
}

const Address = emailAddress();
/** The stored form of an address (normaliseAddress and the console's checks); null: not an address. */
function address(raw: string): string | null {
  const parsed = Address.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** AD's proxyAddresses: only smtp: (an alias) and SMTP: (the primary) are addresses. */
function proxyAddress(value: string): { address: string; primary: boolean } | null {
  const m = /^(smtp):(.*)$/i.exec(value.trim());
  return m ? { address: m[2]!, primary: m[1] === 'SMTP' } : null;
}

/** The attributes asked for: names, addresses, groups and every known kind of account lock. */
export function personAttributes(config: Pick<LdapConfig, 'aliasAttrs'>): string[] {
  const base = [
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
  ];
  return [...new Set([...base, ...config.aliasAttrs])];
}

/**
 * A directory entry as a DirectoryPerson (pure: `groups` are the extra ones a group-base search
 * found). Addresses that are not addresses are dropped.
 */
export function personFromEntry(
  entry: Entry,
  config: Pick<LdapConfig, 'aliasAttrs' | 'adminGroup' | 'domainAdminGroup'>,
  extraGroups: string[] = [],
): DirectoryPerson {
  const values = (name: string) => attributeValues(entry, name);
  const first = (name: string) => values(name)[0]?.trim() ?? '';

  let mail =
    values('mail')
      .map(address)
      .find((a) => a !== null) ?? null;
  const aliases: string[] = [];
  for (const attr of config.aliasAttrs) {
    const isProxy = attr.toLowerCase() === 'proxyaddresses';
    for (const value of values(attr)) {
      if (!isProxy) {
        const a = address(value);
        if (a) aliases.push(a);
        continue;
      }
      const proxy = proxyAddress(value);
      const a = proxy && address(proxy.address);
      if (!a) continue;
      if (proxy.primary && mail === null) mail = a;
      else aliases.push(a);
    }
  }
  const others = [...new Set(aliases)].filter((a) => a !== mail);

  const seen = new Set<string>();
  const groups = [...values('memberOf'), ...extraGroups].filter((g) => {
    const key = normaliseDn(g);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const inGroup = (group: string | null) => group !== null && seen.has(normaliseDn(group));
  const role: Role = inGroup(config.adminGroup) ? 'admin' : inGroup(config.domainAdminGroup) ? 'domain_admin' : 'user';

  const uac = Number(first('userAccountControl'));
  const disabled =
    values('pwdAccountLockedTime').length > 0 ||
    (Number.isInteger(uac) && (uac & 0x2) !== 0) ||
    first('nsAccountLock').toLowerCase() === 'true';

  const given = first('givenName');
  const sn = first('sn');
  const whole = first('displayName') || first('cn');
  return {
    dn: entry.dn,
    mail,
    aliases: others,
    groups,
    role,
    disabled,
    first_name: (given || (sn ? '' : whole)).slice(0, NAME_MAX),
    last_name: sn.slice(0, NAME_MAX),
  };
}

async function withinDeadline<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const running = work();
  running.catch(() => {}); // its own failure, once the deadline has answered, is nobody's to handle
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DirectoryUnavailableError(`no answer within ${ms} ms`, { timedOut: true })),
      ms,
    );
  });
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export function createDirectory(config: LdapConfig, log?: DirectoryLog): Directory {
  const pool = new ServicePool(config);
  const attributes = personAttributes(config);
  let closed = false;

  const failed = (err: unknown, doing: string): never => {
    const error = unavailable(err, doing);
    log?.warn({ err: error.message }, 'directory unavailable');
    throw error;
  };
  const ensureOpen = () => {
    if (closed) throw new DirectoryUnavailableError('the directory client is closed');
  };

  async function groupsOf(entry: Entry): Promise<string[]> {
    if (!config.groupBase) return [];
    const filters: Filter[] = [
      new EqualityFilter({ attribute: 'member', value: entry.dn }),
      new EqualityFilter({ attribute: 'uniqueMember', value: entry.dn }),
    ];
    const uid = attributeValues(entry, 'uid')[0];
    if (uid) filters.push(new EqualityFilter({ attribute: 'memberUid', value: uid }));
    const groupBase = config.groupBase;
    const groups = await pool
      .run((c) => c.search(groupBase, { scope: 'sub', filter: new OrFilter({ filters }), attributes: ['cn'] }))
      .catch((err: unknown) => failed(err, `searching the groups under ${groupBase}`));
    return groups.map((g) => g.dn);
  }

  async function toPerson(entry: Entry): Promise<DirectoryPerson> {
    return personFromEntry(entry, config, await groupsOf(entry));
  }

  async function findEntry(login: string): Promise<Entry | null> {
    ensureOpen();
    const text = typeof login === 'string' ? login.trim() : '';
    if (!text || text.length > LOGIN_MAX) return null;
    const entries = await pool
      .run((c) =>
        c.search(config.userBase, {
          scope: 'sub',
          filter: userFilter(config.userFilter, text),
          attributes,
          sizeLimit: 2,
        }),
      )
      .catch((err: unknown) => failed(err, `searching ${config.userBase}`));
    if (entries.length > 1) {
      log?.warn(
        { filter: userFilterText(config.userFilter, text), dns: entries.map((e) => e.dn) },
        'directory: the login matches several people; nobody is signed in with it',
      );
    }
    return entries.length === 1 ? entries[0]! : null;
  }

  return {
    settings: () => ({
      enabled: true,
      url: config.url,
      starttls: config.startTls,
      ca_file: config.caFile,
      bind_dn: config.bindDn,
      bind_password_set: Boolean(config.bindPassword),
      user_base: config.userBase,
      user_filter: config.userFilter,
      alias_attrs: config.aliasAttrs,
      group_base: config.groupBase,
      admin_group: config.adminGroup,
      domain_admin_group: config.domainAdminGroup,
      timeout_ms: config.timeoutMs,
      pool_size: config.poolSize,
    }),

    async authenticate(login, password) {
      ensureOpen();
      // Before anything is sent: an empty simple bind is an unauthenticated bind, which succeeds.
      if (typeof password !== 'string' || password.trim() === '') return null;
      // A sign-in is several steps (a pool slot, the search, the groups, a connection and a bind),
      // each bounded by the timeout; a directory slow at every step still gets one timeout in all.
      // Steps under way then end at their own timeout, their sockets with them.
      return withinDeadline(config.timeoutMs, async () => {
        const entry = await findEntry(login);
        if (!entry) {
          // A bind as nobody, so that an unknown login takes the time of a wrong password (no enumeration).
          await verifyPassword(config, `cn=qc-sign-in-decoy,${config.userBase}`, password).catch(() => false);
          return null;
        }
        const ok = await verifyPassword(config, entry.dn, password).catch((err: unknown) =>
          failed(err, 'binding as the person'),
        );
        return ok ? toPerson(entry) : null;
      });
    },

    async find(login) {
      const entry = await findEntry(login);
      return entry ? toPerson(entry) : null;
    },

    async findByDn(dn) {
      ensureOpen();
      if (typeof dn !== 'string' || !dn.trim() || !isUnder(dn, config.userBase)) return null;
      const entries = await pool
        .run((c) =>
          c.search(dn, { scope: 'base', filter: new PresenceFilter({ attribute: 'objectClass' }), attributes }),
        )
        .catch((err: unknown) => {
          // Gone, or a DN the server cannot even read: nobody there.
          if (err instanceof NoSuchObjectError || err instanceof InvalidDNSyntaxError) return [];
          return failed(err, `reading ${dn}`);
        });
      return entries.length === 1 ? toPerson(entries[0]!) : null;
    },

    async close() {
      closed = true;
      await pool.close();
    },
  };
}
