import { bearer, createTestApp, postgresOnly, type TestApp } from '../test/helpers';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { HistoryTable } from './schema';

let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'root@admin.example', role: 'admin' });
  adminToken = (await t.login('root@admin.example')).access;
});
afterAll(() => t.close());

let n = 0;
/** A row as the services write it (INSERT stays allowed). */
async function appendRow(actorId: string | null): Promise<string> {
  const id = `H-${++n}`;
  const row: Insertable<HistoryTable> = {
    id,
    created_at: Date.now(),
    actor_id: actorId,
    actor_email: 'ann@a.example',
    actor_role: 'user',
    actor_domain: 'a.example',
    action: 'password_changed',
    email_id: null,
    result: 'success',
    code: null,
    ip_address: '192.0.2.1',
    target_kind: null,
    target_id: null,
    target_label: null,
    changes: null,
  };
  await t.db.insertInto('history').values(row).execute();
  return id;
}
// Not toThrow: the driver's error class comes from the first test file of the process that loaded the
// native module (another realm), and toThrow takes such an error for no error at all.
const refused = (pattern: RegExp) => ({ message: expect.stringMatching(pattern) });
const rowOf = (id: string) => t.db.selectFrom('history').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

test('history rows cannot be changed or removed, whatever the column; new rows still go in', async () => {
  const id = await appendRow(null);
  const before = await rowOf(id);
  await expect(
    t.db.updateTable('history').set({ result: 'failure' }).where('id', '=', id).execute(),
  ).rejects.toMatchObject(refused(/append-only: UPDATE refused/));
  await expect(
    t.db
      .updateTable('history')
      .set((eb) => ({ created_at: eb('created_at', '-', 60_000) }))
      .execute(),
  ).rejects.toMatchObject(refused(/append-only: UPDATE refused/));
  await expect(t.db.deleteFrom('history').where('id', '=', id).execute()).rejects.toMatchObject(
    refused(/append-only: DELETE refused/),
  );
  await expect(t.db.deleteFrom('history').execute()).rejects.toMatchObject(refused(/append-only: DELETE refused/));
  expect(await rowOf(id)).toEqual(before);
});

test("a user's deletion still clears their id from their rows (ON DELETE SET NULL), and nothing else of them", async () => {
  const ann = await t.createUser({ email: 'ann@a.example', role: 'user' });
  const id = await appendRow(ann.id);
  const before = await rowOf(id);
  // Setting the actor to null together with another column is not that change.
  await expect(
    t.db.updateTable('history').set({ actor_id: null, actor_email: 'x@x.example' }).where('id', '=', id).execute(),
  ).rejects.toMatchObject(refused(/append-only: UPDATE refused/));
  // Nor is pointing a row at another actor.
  await expect(
    t.db.updateTable('history').set({ actor_id: 'someone-else' }).where('id', '=', id).execute(),
  ).rejects.toMatchObject(refused(/append-only: UPDATE refused/));

  const res = await t.app.inject({ method: 'DELETE', url: `/api/users/${ann.id}/`, headers: bearer(adminToken) });
  expect(res.statusCode).toBe(204);
  expect(await rowOf(id)).toEqual({ ...before, actor_id: null });
  // The deletion is recorded as any change is.
  const deletion = await t.db
    .selectFrom('history')
    .select(['action', 'target_id'])
    .where('action', '=', 'user_delete')
    .execute();
  expect(deletion).toEqual([{ action: 'user_delete', target_id: ann.id }]);
});

postgresOnly('PostgreSQL: TRUNCATE of the history is refused too', async () => {
  await appendRow(null);
  await expect(sql`truncate history`.execute(t.db)).rejects.toMatchObject(refused(/append-only: TRUNCATE refused/));
  expect((await t.db.selectFrom('history').select('id').execute()).length).toBeGreaterThan(0);
});
