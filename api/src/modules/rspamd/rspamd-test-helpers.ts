import type { RspamdListName } from '@qc/contracts';
import { bearer, type TestApp } from '../../test/helpers';

/** Helpers of the rspamd api tests (one app per test file, signed-in users by e-mail). */

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Caller {
  t: TestApp;
  tokens: Record<string, string>;
}

export function caller({ t, tokens }: Caller) {
  return (method: Method, url: string, as: string | null, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { ...(as ? bearer(tokens[as]!) : {}), 'x-forwarded-for': '198.51.100.7' },
      ...(payload ? { payload } : {}),
    });
}

/** Creates the users and signs them in. */
export async function signIn(
  t: TestApp,
  users: readonly (readonly [email: string, role: 'admin' | 'domain_admin' | 'user', domain?: string])[],
): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const [email, role, domain] of users) {
    await t.createUser({ email, role, ...(domain ? { domain } : {}) });
    tokens[email] = (await t.login(email)).access;
  }
  return tokens;
}

export async function listVersion(t: TestApp, name: RspamdListName): Promise<number> {
  const row = await t.db
    .selectFrom('rspamd_lists')
    .select('version')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

export async function rowCount(
  t: TestApp,
  table: 'rspamd_filters' | 'apanel_filters' | 'system_rules',
): Promise<number> {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface AuditEntry {
  action: string;
  user: { id: string | null; email: string; role: string };
  target: { kind: string; id: string | null; label: string } | null;
  changes: string[] | null;
  ip_address: string | null;
}

export async function ruleHistory(t: TestApp, token: string): Promise<AuditEntry[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/history/?category=administration&page_size=200',
    headers: bearer(token),
  });
  if (res.statusCode !== 200) throw new Error(`history: ${res.statusCode} ${res.body}`);
  return (res.json().results as AuditEntry[]).filter((r) => r.action.startsWith('filter_'));
}
