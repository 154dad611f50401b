import fs from 'node:fs';
import { FilterParser } from 'ldapts';
import { z } from 'zod';
import { int, isLoopbackHost, optional } from './config-env';

/**
 * The organisation's directory (LDAP / Active Directory, issue 31): QC_LDAP_*; null when QC_LDAP_URL
 * is unset. Secrets stay here: the Admin → Directory page shows bind_password_set only.
 */
export interface LdapConfig {
  /** ldap://host[:port] or ldaps://host[:port]. */
  url: string;
  /** StartTLS on an ldap:// URL before any bind. */
  startTls: boolean;
  /** QC_LDAP_CA_FILE as given (absolute), and the certificates it held when the api started. */
  caFile: string | null;
  ca: string | null;
  /** The service account the searches bind as; null: they are anonymous. */
  bindDn: string | null;
  bindPassword: string | null;
  userBase: string;
  /** An RFC 4515 filter with {login} where the typed login goes (escaped). */
  userFilter: string;
  /** Attributes holding a person's other addresses (proxyAddresses: only its smtp: values). */
  aliasAttrs: string[];
  groupBase: string | null;
  adminGroup: string | null;
  domainAdminGroup: string | null;
  /** Connect and per-operation timeout, milliseconds. */
  timeoutMs: number;
  /** Service-bound connections kept for searches. */
  poolSize: number;
}

/** ldap:// or ldaps://, a host, an optional port, no user info, path (but /), query or fragment. */
function isLdapUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'ldap:' || url.protocol === 'ldaps:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === '' &&
    (url.pathname === '' || url.pathname === '/') &&
    url.search === '' &&
    url.hash === ''
  );
}

/**
 * An RFC 4515 filter with {login} in a value (where the typed login goes): in parentheses that
 * balance (ldapts' parser forgives a missing one, which is a typo here) and one ldapts can parse.
 */
function isUserFilter(template: string): boolean {
  const f = template.trim();
  if (!f.startsWith('(') || !f.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '\\') i++;
    else if (f[i] === '(') depth++;
    else if (f[i] === ')' && --depth < 0) return false;
  }
  if (depth !== 0) return false;
  try {
    return FilterParser.parseString(f).toString().includes('{login}');
  } catch {
    return false;
  }
}

/** The QC_LDAP_* variables (part of config.ts's EnvSchema). */
export const LDAP_ENV = {
  QC_LDAP_URL: z
    .string()
    .refine(
      isLdapUrl,
      'must be an ldap:// or ldaps:// URL with a host and nothing after the port, e.g. ldaps://dc1.example.com',
    )
    .optional(),
  QC_LDAP_STARTTLS: z.stringbool({ error: 'must be true or false' }).default(false),
  QC_LDAP_CA_FILE: optional,
  QC_LDAP_BIND_DN: optional,
  QC_LDAP_BIND_PASSWORD: optional,
  QC_LDAP_USER_BASE: optional,
  QC_LDAP_USER_FILTER: z
    .string()
    .default('(|(mail={login})(uid={login}))')
    .refine((v) => v.includes('{login}'), { message: 'must contain {login} (where the typed login goes)', abort: true })
    .refine(isUserFilter, 'must be an LDAP filter with {login} in a value, e.g. (|(mail={login})(uid={login}))'),
  QC_LDAP_ALIAS_ATTRS: z
    .string()
    .default('mailAlternateAddress,proxyAddresses')
    .transform((v) => [
      ...new Set(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .refine(
      (list) => list.every((a) => /^[A-Za-z][A-Za-z0-9-]*$/.test(a)),
      'must be a comma-separated list of attribute names',
    ),
  QC_LDAP_GROUP_BASE: optional,
  QC_LDAP_ADMIN_GROUP: optional,
  QC_LDAP_DOMAIN_ADMIN_GROUP: optional,
  // Sign-in waits at most this long per step for the directory (connect, bind, search).
  QC_LDAP_TIMEOUT_MS: int(3000, 100, 3000),
  QC_LDAP_POOL_SIZE: int(4, 1, 64),
};

/**
 * The directory's settings, or null when QC_LDAP_URL is unset (the other QC_LDAP_* are then
 * ignored). The CA file is read here: a missing or unreadable one stops the start, by name.
 */
export function ldapConfig(
  e: z.infer<z.ZodObject<typeof LDAP_ENV>>,
  resolve: (p: string) => string,
  fail: (problems: string[]) => Error,
): LdapConfig | null {
  if (!e.QC_LDAP_URL) return null;
  const problems: string[] = [];
  if (!e.QC_LDAP_USER_BASE) problems.push('QC_LDAP_USER_BASE: required with QC_LDAP_URL (where people are searched)');
  if (e.QC_LDAP_STARTTLS && e.QC_LDAP_URL.startsWith('ldaps:')) {
    problems.push('QC_LDAP_STARTTLS: StartTLS is for an ldap:// URL (ldaps:// is TLS already)');
  }
  // Every sign-in sends a password: in clear only on this machine's loopback.
  if (e.QC_LDAP_URL.startsWith('ldap:') && !e.QC_LDAP_STARTTLS && !isLoopbackHost(new URL(e.QC_LDAP_URL).hostname)) {
    problems.push(
      'QC_LDAP_URL: ldap:// sends passwords in clear; use ldaps:// or QC_LDAP_STARTTLS=true (plain ldap:// is for loopback only)',
    );
  }
  if (!!e.QC_LDAP_BIND_DN !== !!e.QC_LDAP_BIND_PASSWORD) {
    problems.push(
      e.QC_LDAP_BIND_DN
        ? 'QC_LDAP_BIND_PASSWORD: required with QC_LDAP_BIND_DN'
        : 'QC_LDAP_BIND_DN: required with QC_LDAP_BIND_PASSWORD',
    );
  }
  let caFile: string | null = null;
  let ca: string | null = null;
  if (e.QC_LDAP_CA_FILE) {
    caFile = resolve(e.QC_LDAP_CA_FILE);
    try {
      ca = fs.readFileSync(caFile, 'utf8');
      if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
        problems.push(`QC_LDAP_CA_FILE: ${caFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
      }
    } catch (err) {
      problems.push(`QC_LDAP_CA_FILE: cannot read ${caFile} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
  if (problems.length) throw fail(problems);
  return {
    url: e.QC_LDAP_URL.replace(/\/$/, ''),
    startTls: e.QC_LDAP_STARTTLS,
    caFile,
    ca,
    bindDn: e.QC_LDAP_BIND_DN ?? null,
    bindPassword: e.QC_LDAP_BIND_PASSWORD ?? null,
    userBase: e.QC_LDAP_USER_BASE!,
    userFilter: e.QC_LDAP_USER_FILTER.trim(),
    aliasAttrs: e.QC_LDAP_ALIAS_ATTRS,
    groupBase: e.QC_LDAP_GROUP_BASE ?? null,
    adminGroup: e.QC_LDAP_ADMIN_GROUP ?? null,
    domainAdminGroup: e.QC_LDAP_DOMAIN_ADMIN_GROUP ?? null,
    timeoutMs: e.QC_LDAP_TIMEOUT_MS,
    poolSize: e.QC_LDAP_POOL_SIZE,
  };
}
