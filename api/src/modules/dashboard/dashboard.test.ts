import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { DuplicateMessageError, insertQuarantinedMessage } from '../quarantine/ingest.repository';
import { transitionRecipient } from '../quarantine/status.repository';
import { countsForScope } from './dashboard.repository';

let t: TestApp;
const tokens: Record<string, string> = {};

const message = (recipients: string[], uuid?: string) => ({
  uuid,
  receivedAt: Date.now(),
  sender: 'spammer@bad.example',
  subject: 'Win',
  score: 15,
  action: 'reject',
  size: 1234,
  recipients,
});

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'root@admin.example', role: 'admin' });
  await t.createUser({ email: 'boss@a.example', role: 'domain_admin', domain: 'a.example' });
  await t.createUser({ email: 'ann@a.example', role: 'user', domain: 'a.example' });
  await t.createUser({ email: 'nodomain@b.example', role: 'domain_admin', domain: 'empty.example' });
  for (const email of ['root@admin.example', 'boss@a.example', 'ann@a.example', 'nodomain@b.example']) {
    tokens[email] = (await t.login(email)).access;
  }

  // a.example: ann ×2 messages, bob ×1; b.example: carl ×2 (one of them shared with ann).
  const m1 = await insertQuarantinedMessage(t.db, message(['ann@a.example'], 'uuid-1'));
  await insertQuarantinedMessage(t.db, message(['ANN@a.example', 'carl@b.example'], 'uuid-2'));
  const m3 = await insertQuarantinedMessage(t.db, message(['bob@a.example', 'bob@a.example'], 'uuid-3'));
  const m4 = await insertQuarantinedMessage(t.db, message(['carl@b.example'], 'uuid-4'));
  expect(await transitionRecipient(t.db, m1, 'ann@a.example', 'pending', 'released')).toBe(true);
  expect(await transitionRecipient(t.db, m3, 'bob@a.example', 'pending', 'deleted')).toBe(true);
  expect(await transitionRecipient(t.db, m4, 'carl@b.example', 'pending', 'releasing')).toBe(true);
});
afterAll(() => t.close());

const dashboard = (email: string) =>
  t.app.inject({ method: 'GET', url: '/api/dashboard/', headers: bearer(tokens[email]!) });

test('admin: global counters (recipient rows; releasing still counts as pending)', async () => {
  const res = await dashboard('root@admin.example');
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ pending: 3, released: 1, deleted: 1 });
});

test('domain_admin: only their domain', async () => {
  expect((await dashboard('boss@a.example')).json()).toEqual({ pending: 1, released: 1, deleted: 1 });
  expect((await dashboard('nodomain@b.example')).json()).toEqual({ pending: 0, released: 0, deleted: 0 });
});

test('user: only rows addressed to them', async () => {
  expect((await dashboard('ann@a.example')).json()).toEqual({ pending: 1, released: 1, deleted: 0 });
});

test('without a token → 401', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/' })).statusCode).toBe(401);
});

test('counters change in the same transaction: a failed insert leaves them untouched', async () => {
  const before = await countsForScope(t.db, 'global', '*');
  // The raw bytes' row fails (NOT NULL) after the message row was written: everything rolls back.
  // (Matched by code: in jest, better-sqlite3's errors may come from another realm than this file's Error.)
  const broken = { ...message(['new@c.example'], 'uuid-new'), raw: { data: Buffer.from('x'), sha256: null as never } };
  await expect(insertQuarantinedMessage(t.db, broken)).rejects.toMatchObject({
    code: expect.stringMatching(/^(SQLITE_CONSTRAINT_NOTNULL|23502)$/),
  });
  // The same Haraka uuid again is skipped as a duplicate, and counts nothing either.
  await expect(insertQuarantinedMessage(t.db, message(['new@c.example'], 'uuid-1'))).rejects.toBeInstanceOf(
    DuplicateMessageError,
  );
  expect(await countsForScope(t.db, 'global', '*')).toEqual(before);
  expect(await countsForScope(t.db, 'domain', 'c.example')).toEqual({});
  const orphan = await t.db
    .selectFrom('quarantine_recipients')
    .select('recipient')
    .where('recipient', '=', 'new@c.example')
    .execute();
  expect(orphan).toEqual([]);
  const message_ = await t.db.selectFrom('quarantine_messages').select('id').where('uuid', '=', 'uuid-new').execute();
  expect(message_).toEqual([]);
});

test('a transition that does not apply changes nothing', async () => {
  const before = await countsForScope(t.db, 'global', '*');
  const [row] = await t.db.selectFrom('quarantine_messages').select('id').where('uuid', '=', 'uuid-1').execute();
  expect(await transitionRecipient(t.db, row!.id, 'ann@a.example', 'pending', 'deleted')).toBe(false); // already released
  expect(await countsForScope(t.db, 'global', '*')).toEqual(before);
});

test('counters equal a recount from the rows', async () => {
  const rows = await t.db
    .selectFrom('quarantine_recipients')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const recount = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  const counters = Object.fromEntries(
    Object.entries(await countsForScope(t.db, 'global', '*')).filter(([, n]) => n !== 0),
  );
  expect(counters).toEqual(recount);
});
