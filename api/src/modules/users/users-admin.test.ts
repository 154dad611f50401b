import { AdminUser } from '@qc/contracts';
import { sql } from 'kysely';
import { newId } from '../../lib/ids';
import { bearer, createMfaUser, createTestApp, PASSWORD, partialLogin, type TestApp } from '../../test/helpers';
import { ingestOk, INGEST_TOKEN, meta, mime } from '../../test/quarantine';
import { recordAudit } from '../history/audit.service';
import { SECURITY_NOTICE_SUBJECTS } from '../security/security-notices';
import { deleteManagedUser, systemManager, updateManagedUser } from './users-admin.service';
import type { UserRow } from './users.repository';

let t: TestApp;
let admin: UserRow;
let adminToken: string;
let domainA: string;

beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  admin = await t.createUser({ email: 'root@admin.example', role: 'admin' });
  adminToken = (await t.login('root@admin.example')).access;
  domainA = (await t.createUser({ email: 'boss@a.example', role: 'domain_admin', domain: 'a.example' })).domain_id!;
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, token = adminToken) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload && { payload }) });
const create = (payload: object) => api('POST', '/api/users/', payload);
const patch = (id: string, payload: object, token = adminToken) => api('PATCH', `/api/users/${id}/`, payload, token);
const me = (access: string) => t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
const NEW_PASSWORD = 'a brand new password';

/** The administration rows of the history about `targetId`, oldest first. */
const auditRows = (targetId: string) =>
  t.db
    .selectFrom('history')
    .selectAll()
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describe('POST /api/users/', () => {
  test('with a password: 201, the AdminUser shape; they can sign in; user_create is in the history', async () => {
    const res = await create({
      email: 'New.Person@A.example',
      username: 'newbie',
      first_name: 'New',
      last_name: 'Person',
      role: 'user',
      domain_id: domainA,
      password: PASSWORD,
      mfa_required: true,
    });
    expect(res.statusCode).toBe(201);
    const body = AdminUser.strict().parse(res.json());
    expect(body).toEqual({
      id: expect.any(String),
      username: 'newbie',
      email: 'new.person@a.example',
      first_name: 'New',
      last_name: 'Person',
      role: 'user',
      domain: { id: domainA, name: 'a.example' },
      is_external: false,
      mfa_enabled: false,
      date_joined: expect.any(String),
      pending_email: null,
      source: 'local',
      addresses: ['new.person@a.example'],
      is_active: true,
      last_login: null,
      mfa_required: true,
      invitation_pending: false,
    });
    expect((await api('GET', `/api/users/${body.id}/`)).json()).toEqual(body);
    const rows = await auditRows(body.id);
    expect(rows.map((r) => [r.action, r.actor_email, r.actor_role, r.target_label, r.result])).toEqual([
      ['user_create', 'root@admin.example', 'admin', 'new.person@a.example', 'success'],
    ]);
  });

  test('bad input: 400 naming each field, unknown fields included; nothing is created', async () => {
    const before = (await t.db.selectFrom('users').select('id').execute()).length;
    const cases: [object, string[]][] = [
      [{ email: 'nope', role: 'user', password: PASSWORD }, ['email']],
      [{ email: 'ok1@example.com', role: 'boss', password: PASSWORD }, ['role']],
      [{ email: 'ok2@example.com', role: 'user', password: 'short' }, ['password']],
      [{ email: 'ok3@example.com', role: 'user', password: PASSWORD, username: 'has space' }, ['username']],
      [
        { email: 'ok4@example.com', role: 'user', password: PASSWORD, is_admin: true, colour: 'red' },
        ['is_admin', 'colour'],
      ],
      [{ email: 'ok5@example.com', role: 'domain_admin', password: PASSWORD }, ['domain_id']],
      [{ email: 'ok6@example.com', role: 'user', password: PASSWORD, domain_id: newId() }, ['domain_id']],
      [{ email: 'ok7@example.com', role: 'user', password: PASSWORD, domain_id: 'not-an-id' }, ['domain_id']],
    ];
    for (const [payload, fields] of cases) {
      const res = await create(payload);
      expect([payload, res.statusCode, res.json().code]).toEqual([payload, 400, 'validation_error']);
      expect([payload, Object.keys(res.json().errors).sort()]).toEqual([payload, [...fields].sort()]);
    }
    expect((await t.db.selectFrom('users').select('id').execute()).length).toBe(before);
  });

  test('e-mail and username conflicts: 409 naming the field (a username may not be another account’s e-mail)', async () => {
    await t.createUser({ email: 'taken@example.com', username: 'Taken.Name' });
    const cases: [object, number, string, string][] = [
      [{ email: 'TAKEN@example.com' }, 409, 'email_taken', 'email'],
      [{ email: 'fresh1@example.com', username: 'taken.name' }, 409, 'username_taken', 'username'],
      [{ email: 'fresh2@example.com', username: 'Taken@Example.com' }, 409, 'username_taken', 'username'],
      [{ email: 'taken.name@example.com', username: 'x' }, 201, '', ''],
    ];
    await t.createUser({ email: 'owner@example.com', username: 'shared@example.com' });
    cases.push([{ email: 'shared@example.com' }, 409, 'email_taken', 'email']);
    for (const [payload, status, code, field] of cases) {
      const res = await create({ role: 'user', password: PASSWORD, ...payload });
      const body = res.json();
      expect([payload, res.statusCode, body.code ?? '', Object.keys(body.errors ?? {})]).toEqual([
        payload,
        status,
        code,
        field ? [field] : [],
      ]);
    }
  });

  test('the username defaults to the local part, or the whole address when that is taken', async () => {
    const first = await create({ email: 'dup.local@one.example', role: 'user', password: PASSWORD });
    const second = await create({ email: 'dup.local@two.example', role: 'user', password: PASSWORD });
    expect([first.json().username, second.json().username]).toEqual(['dup.local', 'dup.local@two.example']);
  });
});

describe('PATCH /api/users/{id}/', () => {
  test('changes the fields; the history lists the names of those that changed, never their values', async () => {
    const user = await t.createUser({ email: 'edit@example.com', username: 'edit' });
    const res = await patch(user.id, {
      first_name: 'Eddie',
      last_name: 'Secretvalue',
      username: 'edit', // unchanged: not listed
      is_external: true,
      password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ first_name: 'Eddie', last_name: 'Secretvalue', is_external: true });
    const [row] = (await auditRows(user.id)).filter((r) => r.action === 'user_update');
    expect([row!.action, JSON.parse(row!.changes!)]).toEqual([
      'user_update',
      ['first_name', 'last_name', 'is_external', 'password'],
    ]);
    expect(JSON.stringify(row)).not.toMatch(/Eddie|Secretvalue|brand new/);
    expect((await t.login('edit@example.com', NEW_PASSWORD)).access).toBeDefined();
    // A password set by an administrator is a security event: its own history row, and a notice.
    const event = await t.db
      .selectFrom('history')
      .select(['actor_email', 'target_label'])
      .where('action', '=', 'password_changed')
      .where('target_id', '=', user.id)
      .execute();
    expect(event).toEqual([{ actor_email: 'root@admin.example', target_label: 'edit@example.com' }]);
    expect(t.mails.filter((m) => m.to === 'edit@example.com').map((m) => m.subject)).toEqual([
      SECURITY_NOTICE_SUBJECTS.password_changed,
    ]);
    // Nothing changed, nothing written.
    expect((await patch(user.id, { first_name: 'Eddie' })).statusCode).toBe(200);
    expect((await auditRows(user.id)).filter((r) => r.action === 'user_update')).toHaveLength(1);
  });

  test('unknown fields and bad values: 400 naming them; nothing changes', async () => {
    const user = await t.createUser({ email: 'strict@example.com' });
    const unknown = await patch(user.id, { first_name: 'X', date_joined: '2020-01-01T00:00:00Z', mfa_enabled: true });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json().errors).sort()).toEqual(['date_joined', 'mfa_enabled']);
    const bad = await patch(user.id, { email: 'no', role: 'root', is_active: 'yes' });
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'is_active', 'role']);
    expect((await api('GET', `/api/users/${user.id}/`)).json()).toMatchObject({ first_name: '', role: 'user' });
  });

  test('e-mail and username taken by another account: 409; one’s own values are no conflict', async () => {
    await t.createUser({ email: 'other@example.com', username: 'other' });
    const user = await t.createUser({ email: 'mine@example.com', username: 'mine' });
    expect((await patch(user.id, { email: 'OTHER@example.com' })).json()).toMatchObject({
      code: 'email_taken',
      errors: { email: expect.any(String) },
    });
    expect((await patch(user.id, { username: 'OTHER' })).json().code).toBe('username_taken');
    expect((await patch(user.id, { username: 'other@example.com' })).json()).toMatchObject({
      code: 'username_taken',
      errors: { username: expect.stringContaining('e-mail') },
    });
    const own = await patch(user.id, { username: 'MINE', email: 'Mine@Example.com' });
    expect([own.statusCode, own.json().username, own.json().email]).toEqual([200, 'MINE', 'mine@example.com']);
  });

  test('external users keep their username and e-mail (400 naming the field) unless made internal in the same request', async () => {
    const user = await t.createUser({ email: 'ext@example.com', username: 'ext', is_external: true });
    const refused = await patch(user.id, { username: 'ext2', email: 'ext2@example.com', first_name: 'Ext' });
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(refused.json().errors).sort()).toEqual(['email', 'username']);
    expect((await api('GET', `/api/users/${user.id}/`)).json()).toMatchObject({ username: 'ext', first_name: '' });
    const names = await patch(user.id, { username: 'ext', first_name: 'Ext' }); // unchanged username: fine
    expect(names.statusCode).toBe(200);
    const internal = await patch(user.id, { is_external: false, username: 'int', email: 'int@example.com' });
    expect(internal.json()).toMatchObject({ is_external: false, username: 'int', email: 'int@example.com' });
  });

  test('a domain_admin needs a domain; an unknown domain is 400 errors.domain_id', async () => {
    const user = await t.createUser({ email: 'promote@example.com' });
    for (const body of [{ role: 'domain_admin' }, { role: 'domain_admin', domain_id: newId() }]) {
      const res = await patch(user.id, body);
      expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([400, ['domain_id']]);
    }
    const ok = await patch(user.id, { role: 'domain_admin', domain_id: domainA });
    expect(ok.json()).toMatchObject({ role: 'domain_admin', domain: { id: domainA } });
    const orphan = await patch(user.id, { domain_id: null });
    expect([orphan.statusCode, Object.keys(orphan.json().errors)]).toEqual([400, ['domain_id']]);
  });
});

describe('sessions end at once on a change of role, domain, password, MFA requirement, MFA reset or deactivation', () => {
  const CHANGES: [string, (id: string) => Promise<{ statusCode: number }>][] = [
    ['role', (id) => patch(id, { role: 'admin' })],
    ['domain', (id) => patch(id, { domain_id: domainA })],
    ['password', (id) => patch(id, { password: NEW_PASSWORD })],
    ['mfa_required', (id) => patch(id, { mfa_required: true })],
    ['deactivation', (id) => patch(id, { is_active: false })],
    ['mfa reset', (id) => api('POST', `/api/users/${id}/mfa/reset/`)],
  ];
  test.each(CHANGES)('%s', async (name, change) => {
    const email = `ends-${name.replace(/\W/g, '')}@example.com`;
    const user = await t.createUser({ email });
    const session = await t.login(email);
    expect((await me(session.access)).statusCode).toBe(200);
    expect([200, 204]).toContain((await change(user.id)).statusCode);
    expect((await me(session.access)).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh/',
      payload: { refresh: session.refresh },
    });
    expect(refresh.statusCode).toBe(401);
  });

  test('a name change does not; a deactivated user cannot sign in again until reactivated', async () => {
    const user = await t.createUser({ email: 'keeps@example.com' });
    const session = await t.login('keeps@example.com');
    await patch(user.id, { first_name: 'Still', last_name: 'Here', username: 'keeps2' });
    expect((await me(session.access)).statusCode).toBe(200);
    await patch(user.id, { is_active: false });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: 'keeps@example.com', password: PASSWORD },
    });
    expect([login.statusCode, login.json().code]).toEqual([401, 'account_inactive']);
    await patch(user.id, { is_active: true });
    expect((await t.login('keeps@example.com')).access).toBeDefined();
  });
});

describe('POST /api/users/{id}/mfa/reset/', () => {
  test('removes the secret and the backup codes, ends the sessions, writes mfa_reset', async () => {
    const mfa = await createMfaUser(t, 'mfa-reset@example.com');
    await partialLogin(t, mfa.email); // two-factor asked before the reset
    const res = await api('POST', `/api/users/${mfa.id}/mfa/reset/`);
    expect(res.statusCode).toBe(204);
    const row = await t.db
      .selectFrom('users')
      .select(['mfa_enabled', 'mfa_secret'])
      .where('id', '=', mfa.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ mfa_enabled: 0, mfa_secret: null });
    const codes = await t.db.selectFrom('mfa_backup_codes').select('id').where('user_id', '=', mfa.id).execute();
    expect(codes).toEqual([]);
    expect((await me(mfa.access)).statusCode).toBe(401);
    expect((await api('GET', `/api/users/${mfa.id}/`)).json().mfa_enabled).toBe(false);
    expect((await t.login(mfa.email)).access).toBeDefined(); // password alone again
    expect(t.mails.filter((m) => m.to === mfa.email).map((m) => m.subject)).toContain(
      SECURITY_NOTICE_SUBJECTS.mfa_reset,
    );
    const rows = (await auditRows(mfa.id)).filter((r) => r.action === 'mfa_reset');
    expect(rows.map((r) => [r.actor_email, r.target_label])).toEqual([['root@admin.example', mfa.email]]);
  });
});

describe('self and last-admin guards', () => {
  test('nobody deletes, deactivates or demotes themselves (400 cannot_change_self); other self changes are fine', async () => {
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PATCH', { is_active: false }],
      ['PATCH', { role: 'user' }],
      ['PATCH', { role: 'domain_admin', domain_id: domainA }],
    ] as const) {
      const res = await api(method, `/api/users/${admin.id}/`, body);
      expect([method, body, res.statusCode, res.json().code]).toEqual([method, body, 400, 'cannot_change_self']);
    }
    expect((await patch(admin.id, { first_name: 'Root' })).statusCode).toBe(200);
    expect((await me(adminToken)).json()).toMatchObject({ role: 'admin', first_name: 'Root' });
  });

  test('the last active admin cannot be deleted, deactivated or demoted (409 last_admin), also by the CLI', async () => {
    const solo = await createTestApp();
    try {
      const only = await solo.createUser({ email: 'only@admin.example', role: 'admin' });
      const deps = { db: solo.db, passwords: solo.passwords };
      const cli = systemManager('cli');
      for (const body of [{ role: 'user' as const }, { is_active: false }]) {
        await expect(updateManagedUser(deps, cli, only.id, body)).rejects.toMatchObject({ code: 'last_admin' });
      }
      await expect(deleteManagedUser(solo.db, cli, only.id)).rejects.toMatchObject({
        statusCode: 409,
        code: 'last_admin',
      });
      // An inactive admin does not count; a second active one does.
      const dormant = await solo.createUser({ email: 'dormant@admin.example', role: 'admin' });
      await updateManagedUser(deps, cli, dormant.id, { is_active: false });
      await expect(updateManagedUser(deps, cli, only.id, { role: 'user' })).rejects.toMatchObject({
        code: 'last_admin',
      });
      await updateManagedUser(deps, cli, dormant.id, { is_active: true });
      expect((await updateManagedUser(deps, cli, only.id, { role: 'user' })).role).toBe('user');
    } finally {
      await solo.close();
    }
  });

  test('two admins demoting each other at the same time: one admin always remains', async () => {
    const race = await createTestApp();
    try {
      const a = await race.createUser({ email: 'a@admin.example', role: 'admin' });
      const b = await race.createUser({ email: 'b@admin.example', role: 'admin' });
      const [ta, tb] = [(await race.login(a.email)).access, (await race.login(b.email)).access];
      const demote = (token: string, id: string) =>
        race.app.inject({
          method: 'PATCH',
          url: `/api/users/${id}/`,
          headers: bearer(token),
          payload: { role: 'user' },
        });
      const results = await Promise.all([demote(ta, b.id), demote(tb, a.id)]);
      // The first to commit wins; the other finds itself no longer an admin (401: its session ended)
      // or, having passed authentication already, the last admin (409).
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, expect.any(Number)]);
      expect([401, 409]).toContain(results.map((r) => r.statusCode).sort()[1]);
      const admins = await race.db
        .selectFrom('users')
        .select('email')
        .where('role', '=', 'admin')
        .where('is_active', '=', 1)
        .execute();
      expect(admins).toHaveLength(1);
    } finally {
      await race.close();
    }
  });
});

describe('DELETE /api/users/{id}/', () => {
  test('every table referring to users.id cascades or lets go (ON DELETE CASCADE / SET NULL)', async () => {
    const refs =
      t.database.dialect === 'sqlite'
        ? await sql<{ table_name: string; on_delete: string }>`select m.name as table_name, f.on_delete as on_delete
            from sqlite_master m join pragma_foreign_key_list(m.name) f
            where m.type = 'table' and f."table" = 'users'`.execute(t.db)
        : await sql<{ table_name: string; on_delete: string }>`select conrelid::regclass::text as table_name,
            case confdeltype when 'c' then 'CASCADE' when 'n' then 'SET NULL' else confdeltype::text end as on_delete
            from pg_constraint where contype = 'f' and confrelid = 'users'::regclass`.execute(t.db);
    expect(refs.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'sessions',
        'mfa_backup_codes',
        'mfa_partial_tokens',
        'email_changes',
        'user_preferences',
        'feedback',
        'quarantine_deliveries',
        'history',
        'user_invitations',
      ]),
    );
    expect(refs.rows.filter((r) => !['CASCADE', 'SET NULL'].includes(r.on_delete))).toEqual([]);
  });

  test('with rows in every such table: 204; the history, feedback and releases keep their copies', async () => {
    const mfa = await createMfaUser(t, 'doomed@a.example');
    const id = mfa.id;
    await partialLogin(t, mfa.email); // an mfa_partial_tokens row
    await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/preferences/',
      headers: bearer(mfa.access),
      payload: { theme_mode: 'dark', default_page_size: 20 },
    });
    const now = Date.now();
    await t.db
      .insertInto('email_changes')
      .values({
        id: newId(),
        user_id: id,
        new_email: 'x@a.example',
        token_hash: 'h1',
        created_at: now,
        expires_at: now + 1e6,
        used_at: null,
      })
      .execute();
    await t.db
      .insertInto('user_invitations')
      .values({ id: newId(), user_id: id, token_hash: 'h2', created_at: now, expires_at: now + 1e6, used_at: null })
      .execute();
    const feedbackId = newId();
    await t.db
      .insertInto('feedback')
      .values({ id: feedbackId, user_id: id, type: 'bug', message: 'hi', email: null, created_at: now })
      .execute();
    const messageId = await ingestOk(t, meta({ rcpt_to: ['doomed@a.example'] }), mime());
    const deliveryId = newId();
    await t.db
      .insertInto('quarantine_deliveries')
      .values({
        id: deliveryId,
        message_id: messageId,
        actor_id: id,
        actor_email: mfa.email,
        started_at: now,
        finished_at: now,
        outcome: 'released',
        response: '250 ok',
        accepted: '[]',
        rejected: '[]',
      })
      .execute();
    const actor = { id, email: mfa.email, role: 'user' as const, domain: 'a.example', ip: null };
    await recordAudit(t.db, {
      action: 'mfa_enabled',
      actor,
      target: { kind: 'user', id, label: mfa.email, domain: 'a.example' },
    });

    const res = await api('DELETE', `/api/users/${id}/`);
    expect(res.statusCode).toBe(204);
    expect((await api('GET', `/api/users/${id}/`)).statusCode).toBe(404);
    expect((await me(mfa.access)).statusCode).toBe(401);
    for (const table of [
      'sessions',
      'mfa_backup_codes',
      'mfa_partial_tokens',
      'email_changes',
      'user_preferences',
      'user_invitations',
    ] as const) {
      const left = await t.db.selectFrom(table).select('user_id').where('user_id', '=', id).execute();
      expect([table, left]).toEqual([table, []]);
    }
    expect(await t.db.selectFrom('feedback').select('user_id').where('id', '=', feedbackId).execute()).toEqual([
      { user_id: null },
    ]);
    expect(
      await t.db
        .selectFrom('quarantine_deliveries')
        .select(['actor_id', 'actor_email'])
        .where('id', '=', deliveryId)
        .execute(),
    ).toEqual([{ actor_id: null, actor_email: 'doomed@a.example' }]);
    const history = await auditRows(id);
    const own = history.filter((r) => r.actor_email === mfa.email);
    expect(own.length).toBeGreaterThanOrEqual(1);
    expect(own.map((r) => [r.actor_id, r.actor_role])).toEqual(own.map(() => [null, 'user']));
    expect(history.map((r) => [r.action, r.actor_id, r.actor_email, r.actor_role]).at(-1)).toEqual([
      'user_delete',
      admin.id,
      'root@admin.example',
      'admin',
    ]);
    // Deleting again: the user is no more.
    expect((await api('DELETE', `/api/users/${id}/`)).statusCode).toBe(404);
  });
});
