import { AdminUser, CurrentUser } from '@qc/contracts';
import { EMAIL_IN_USE_SUBJECT } from '../profile/profile.service';
import { bearer, createTestApp, PASSWORD, type TestApp } from '../../test/helpers';
import { updateManagedUser, UNAUDITED_SYSTEM } from './users-admin.service';
import type { UserRow } from './users.repository';

/** Several addresses per user (issue 31, DESIGN §4.2 "user shape"): PATCH {addresses}, one owner each. */
let t: TestApp;
let adminToken: string;
let daToken: string;
let ann: UserRow;
let bob: UserRow;
let other: UserRow;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'root@a.example', role: 'admin', domain: 'a.example' });
  adminToken = (await t.login('root@a.example')).access;
  await t.createUser({ email: 'boss@b.example', role: 'domain_admin', domain: 'b.example' });
  daToken = (await t.login('boss@b.example')).access;
  await t.createUser({ email: 'x@c.example', role: 'user', domain: 'c.example' });
  ann = await t.createUser({ email: 'ann@b.example', role: 'user', domain: 'b.example' });
  bob = await t.createUser({ email: 'bob@b.example', role: 'user', domain: 'b.example' });
  other = await t.createUser({ email: 'zoe@a.example', role: 'user', domain: 'a.example' });
});
afterAll(() => t.close());

const patch = (id: string, payload: object, token = adminToken) =>
  t.app.inject({ method: 'PATCH', url: `/api/users/${id}/`, headers: bearer(token), payload });
const get = (id: string) => t.app.inject({ method: 'GET', url: `/api/users/${id}/`, headers: bearer(adminToken) });
const stored = (userId: string) =>
  t.db
    .selectFrom('user_addresses')
    .select(['address', 'position'])
    .where('user_id', '=', userId)
    .orderBy('position')
    .execute();

test('a new user has their e-mail as their one address, source local', async () => {
  const body = AdminUser.strict().parse((await get(ann.id)).json());
  expect(body).toMatchObject({ source: 'local', addresses: ['ann@b.example'] });
  expect(await stored(ann.id)).toEqual([{ address: 'ann@b.example', position: 0 }]);
});

test('an admin gives aliases (normalised, each once); the list and the user page show them', async () => {
  const res = await patch(ann.id, {
    addresses: ['ann@b.example', 'Sales@B.example', 'ann.x@a.example', 'sales@b.example'],
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().addresses).toEqual(['ann@b.example', 'sales@b.example', 'ann.x@a.example']);
  const list = await t.app.inject({ method: 'GET', url: '/api/users/?q=ann', headers: bearer(adminToken) });
  expect(list.json().results.find((u: { id: string }) => u.id === ann.id).addresses).toEqual([
    'ann@b.example',
    'sales@b.example',
    'ann.x@a.example',
  ]);
});

test('the signed-in user sees their addresses in /api/users/me/', async () => {
  const { access } = await t.login('ann@b.example');
  const me = CurrentUser.strict().parse(
    (await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) })).json(),
  );
  expect(me.addresses).toEqual(['ann@b.example', 'sales@b.example', 'ann.x@a.example']);
});

test("another user's address or alias: 409 address_taken, nothing changed", async () => {
  for (const taken of ['bob@b.example', 'sales@b.example']) {
    const res = await patch(other.id, { addresses: ['zoe@a.example', taken] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'address_taken', detail: expect.stringContaining(taken) });
  }
  expect(await stored(other.id)).toEqual([{ address: 'zoe@a.example', position: 0 }]);
  // Given as the primary, the same answer.
  const primary = await patch(other.id, { addresses: ['bob@b.example', 'zoe@a.example'] });
  expect([primary.statusCode, primary.json().code]).toEqual([409, 'address_taken']);
  // The e-mail of a new or changed account cannot be someone's alias either.
  const res = await patch(bob.id, { email: 'sales@b.example' });
  expect(res.statusCode).toBe(409);
  expect(res.json().code).toBe('email_taken');
});

test('an address outside the console domains, or invalid: 400 errors.addresses, nothing changed', async () => {
  const outside = await patch(bob.id, { addresses: ['bob@b.example', 'bob@nowhere.example'] });
  expect(outside.statusCode).toBe(400);
  expect(outside.json().errors.addresses).toContain('bob@nowhere.example');
  const invalid = await patch(bob.id, { addresses: ['bob@b.example', 'not an address'] });
  expect(invalid.statusCode).toBe(400);
  const empty = await patch(bob.id, { addresses: [] });
  expect(empty.statusCode).toBe(400);
  expect(await stored(bob.id)).toEqual([{ address: 'bob@b.example', position: 0 }]);
});

test('a domain_admin gives addresses of their own domain only', async () => {
  const foreign = await patch(bob.id, { addresses: ['bob@b.example', 'bob@c.example'] }, daToken);
  expect(foreign.statusCode).toBe(400);
  expect(foreign.json().errors.addresses).toContain('own domain');
  const own = await patch(bob.id, { addresses: ['bob@b.example', 'info@b.example'] }, daToken);
  expect(own.statusCode).toBe(200);
  expect(own.json().addresses).toEqual(['bob@b.example', 'info@b.example']);
});

test('a new primary becomes the e-mail; the old one can stay as an alias; sign-in uses the primary', async () => {
  const res = await patch(bob.id, { addresses: ['info@b.example', 'bob@b.example'] });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ email: 'info@b.example', addresses: ['info@b.example', 'bob@b.example'] });
  expect(await stored(bob.id)).toEqual([
    { address: 'info@b.example', position: 0 },
    { address: 'bob@b.example', position: 1 },
  ]);
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { email: 'info@b.example', password: PASSWORD },
  });
  expect(login.statusCode).toBe(200);
  // Both fields must agree.
  const mismatch = await patch(bob.id, { email: 'bob@b.example', addresses: ['info@b.example'] });
  expect(mismatch.statusCode).toBe(400);
  expect(mismatch.json().errors.addresses).toBeDefined();
});

test('an e-mail change alone moves the primary; the history names the field, never the values', async () => {
  await updateManagedUser(t, UNAUDITED_SYSTEM, other.id, { email: 'zoe.new@a.example' });
  expect(await stored(other.id)).toEqual([{ address: 'zoe.new@a.example', position: 0 }]);
  const res = await patch(other.id, { addresses: ['zoe.new@a.example', 'z@a.example'] });
  expect(res.statusCode).toBe(200);
  const row = await t.db
    .selectFrom('history')
    .select('changes')
    .where('target_id', '=', other.id)
    .where('action', '=', 'user_update')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  expect(JSON.parse(row.changes!)).toEqual(['addresses']);
});

test("a directory user's identity is read-only: 400 directory_managed per field; activation stays the console's", async () => {
  await t.db
    .updateTable('users')
    .set({ source: 'ldap', external_id: 'uid=x,dc=example' })
    .where('id', '=', other.id)
    .execute();
  const res = await patch(other.id, { addresses: ['zoe.new@a.example'], role: 'admin', first_name: 'Z' });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'directory_managed' });
  expect(Object.keys(res.json().errors).sort()).toEqual(['addresses', 'first_name', 'role']);
  const deactivate = await patch(other.id, { is_active: false });
  expect(deactivate.statusCode).toBe(200);
  expect(deactivate.json()).toMatchObject({ source: 'ldap', is_active: false });
});

test("a user's own e-mail change to someone else's alias gets the 'address in use' mail, never a link", async () => {
  await patch(bob.id, { addresses: ['info@b.example', 'bob@b.example', 'shared@b.example'] });
  const zoe = await t.createUser({ email: 'zed@b.example', role: 'user', domain: 'b.example' });
  const { access } = await t.login(zoe.email);
  const sent = t.mails.length;
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/users/me/',
    headers: bearer(access),
    payload: { email: 'shared@b.example', current_password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const mail = t.mails.slice(sent).find((m) => m.to === 'shared@b.example');
  expect(mail?.subject).toBe(EMAIL_IN_USE_SUBJECT);
});

test('deleting a user frees their addresses', async () => {
  const res = await t.app.inject({ method: 'DELETE', url: `/api/users/${ann.id}/`, headers: bearer(adminToken) });
  expect(res.statusCode).toBe(204);
  expect(await stored(ann.id)).toEqual([]);
  const reuse = await patch(bob.id, { addresses: ['info@b.example', 'sales@b.example'] });
  expect(reuse.statusCode).toBe(200);
});
