import { BULK_MAX_IDS } from '@qc/contracts';
import { bearer, type TestApp } from '../../test/helpers';
import {
  globalCounters,
  ingestOk,
  meta,
  mime,
  recount,
  type Sink,
  startQuarantineSuite,
  type QuarantineSuite,
} from '../../test/quarantine';
import { REFUSAL_REPEAT_MS } from './quarantine.service';

let suite: QuarantineSuite;
let t: TestApp;
let sink: Sink;
let tokens: Record<string, string>;

beforeAll(async () => {
  suite = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
  ]);
  ({ t, sink, tokens } = suite);
});
afterAll(() => suite.close());
beforeEach(() => {
  sink.mode = 'accept';
  sink.rejectRecipients.clear();
  sink.delayMs = 0;
});

interface Result {
  id: string;
  status: string;
  code?: string;
}

const bulk = (email: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/quarantine/bulk/', headers: bearer(tokens[email]!), payload });
async function bulkOk(email: string, ids: string[], action: 'release' | 'delete'): Promise<Result[]> {
  const res = await bulk(email, { ids, action });
  expect(res.statusCode).toBe(200);
  return res.json().results;
}
const mail = (rcpt: string[], subject: string) =>
  ingestOk(t, meta({ rcpt_to: rcpt }), mime({ subject, to: rcpt.join(', ') }));
const statusOf = async (id: string, recipient: string) =>
  (
    await t.db
      .selectFrom('quarantine_recipients')
      .select('status')
      .where('message_id', '=', id)
      .where('recipient', '=', recipient)
      .executeTakeFirstOrThrow()
  ).status;
const historyOf = (ids: string[]) =>
  t.db
    .selectFrom('history')
    .select(['email_id', 'action', 'result', 'code', 'actor_email'])
    .where('email_id', 'in', ids)
    .orderBy('email_id')
    .execute();

test('delete: each id reported; not yours and unknown fail as email_not_found; a history row per existing e-mail', async () => {
  const mine1 = await mail(['ann@a.example'], 'mine 1');
  const mine2 = await mail(['ann@a.example', 'carl@b.example'], 'shared');
  const carls = await mail(['carl@b.example'], 'carl only');
  const unknown = '01ZZZZZZZZZZZZZZZZZZZZZZZZ';
  const results = await bulkOk('ann@a.example', [mine1, carls, unknown, mine2], 'delete');
  expect(results).toEqual([
    { id: mine1, status: 'deleted' },
    { id: carls, status: 'failed', code: 'email_not_found' },
    { id: unknown, status: 'failed', code: 'email_not_found' },
    { id: mine2, status: 'deleted' },
  ]);
  // Only ann's rows changed: carl's mail and carl's recipient of the shared one are still held.
  expect(await statusOf(mine1, 'ann@a.example')).toBe('deleted');
  expect(await statusOf(mine2, 'ann@a.example')).toBe('deleted');
  expect(await statusOf(mine2, 'carl@b.example')).toBe('pending');
  expect(await statusOf(carls, 'carl@b.example')).toBe('pending');
  const history = await historyOf([mine1, carls, unknown, mine2]);
  expect(history.map((h) => [h.email_id, h.action, h.result, h.code, h.actor_email]).sort()).toEqual(
    [
      [mine1, 'delete', 'success', null, 'ann@a.example'],
      [carls, 'delete', 'failure', 'email_not_found', 'ann@a.example'],
      // No e-mail has this id: nothing to audit (else any user could fill the trail, 500 ids a request).
      [mine2, 'delete', 'success', null, 'ann@a.example'],
    ].sort(),
  );
  // The counters moved in the same transactions as the rows.
  expect(await globalCounters(t)).toEqual(await recount(t));
});

test('the same refusal again within a minute is one attempt: recorded once, then again once the minute is past', async () => {
  const carls = await mail(['carl@b.example'], 'probed');
  for (let i = 0; i < 3; i++) {
    expect(await bulkOk('ann@a.example', [carls], 'delete')).toEqual([
      { id: carls, status: 'failed', code: 'email_not_found' },
    ]);
  }
  expect(await historyOf([carls])).toHaveLength(1);
  // A minute later: the clock moves (history rows are append-only, they cannot be moved back).
  const realNow = Date.now.bind(Date);
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + REFUSAL_REPEAT_MS + 1);
  try {
    await bulkOk('ann@a.example', [carls], 'delete');
    await bulkOk('ann@a.example', [carls], 'release');
  } finally {
    clock.mockRestore();
  }
  expect((await historyOf([carls])).map((h) => [h.action, h.code])).toEqual([
    ['delete', 'email_not_found'],
    ['delete', 'email_not_found'],
    ['release', 'email_not_found'],
  ]);
});

test('release: partial success reported per id, the relay gets each mail once, to your recipients only', async () => {
  const a = await mail(['ann@a.example', 'carl@b.example'], 'release a');
  const b = await mail(['ann@a.example'], 'release b');
  const deleted = await mail(['ann@a.example'], 'deleted first');
  const carls = await mail(['carl@b.example'], 'not ann');
  expect(await bulkOk('ann@a.example', [deleted], 'delete')).toEqual([{ id: deleted, status: 'deleted' }]);
  const before = sink.messages.length;
  const results = await bulkOk('ann@a.example', [a, b, b, deleted, carls], 'release');
  expect(results).toEqual([
    { id: a, status: 'released' },
    { id: b, status: 'released' }, // a repeated id is acted on once
    { id: deleted, status: 'failed', code: 'email_deleted' },
    { id: carls, status: 'failed', code: 'email_not_found' },
  ]);
  const sent = sink.messages.slice(before);
  expect(sent.map((m) => m.to)).toEqual([['ann@a.example'], ['ann@a.example']]);
  expect(await statusOf(a, 'carl@b.example')).toBe('pending');
  // Again: nothing left to release.
  expect(await bulkOk('ann@a.example', [a, b], 'release')).toEqual([
    { id: a, status: 'failed', code: 'already_released' },
    { id: b, status: 'failed', code: 'already_released' },
  ]);
  expect(sink.messages.length).toBe(before + 2);
  const history = await historyOf([a, b]);
  expect(history.filter((h) => h.action === 'release').map((h) => h.result)).toEqual([
    'success',
    'failure',
    'success',
    'failure',
  ]);
});

test('release: the relay refusing one recipient → partially_released; refusing all → failed relay_refused', async () => {
  const two = await mail(['ann@a.example', 'bob@a.example'], 'two of a');
  const refused = await mail(['ann@a.example'], 'refused');
  sink.rejectRecipients.add('bob@a.example');
  expect(await bulkOk('boss@a.example', [two], 'release')).toEqual([{ id: two, status: 'partially_released' }]);
  expect(await statusOf(two, 'bob@a.example')).toBe('release_failed');
  sink.mode = 'reject-data';
  expect(await bulkOk('boss@a.example', [refused], 'release')).toEqual([
    { id: refused, status: 'failed', code: 'relay_refused' },
  ]);
  expect(await statusOf(refused, 'ann@a.example')).toBe('release_failed');
});

test('two bulk releases racing over the same ids: each mail is sent once (the claim holds)', async () => {
  const ids = [];
  for (let i = 0; i < 6; i++) ids.push(await mail(['carl@b.example'], `race ${i}`));
  sink.delayMs = 30; // the first sends are still in flight when the second request claims
  const before = sink.messages.length;
  const [first, second] = await Promise.all([
    bulkOk('carl@b.example', ids, 'release'),
    bulkOk('root@admin.example', [...ids].reverse(), 'release'),
  ]);
  const sentTo = sink.messages.slice(before).map((m) => m.to.join());
  expect(sentTo).toEqual(ids.map(() => 'carl@b.example'));
  const outcomes = new Map<string, string[]>();
  for (const r of [...first, ...second]) outcomes.set(r.id, [...(outcomes.get(r.id) ?? []), r.code ?? r.status]);
  for (const id of ids) {
    const o = outcomes.get(id)!.sort();
    expect(o).toHaveLength(2);
    expect(o.filter((s) => s === 'released')).toHaveLength(1);
    expect(o.find((s) => s !== 'released')).toMatch(/^(already_released|release_in_progress)$/);
  }
  for (const id of ids) expect(await statusOf(id, 'carl@b.example')).toBe('released');
});

test('history of bulk actions is scoped per role like any other', async () => {
  const id = await mail(['carl@b.example'], 'history scope');
  await bulkOk('carl@b.example', [id], 'delete');
  const rows = async (email: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/history/?page_size=200',
      headers: bearer(tokens[email]!),
    });
    expect(res.statusCode).toBe(200);
    return (res.json().results as { email_id: string; user: { email: string } }[]).filter((r) => r.email_id === id);
  };
  expect((await rows('carl@b.example')).map((r) => r.user.email)).toEqual(['carl@b.example']);
  expect(await rows('root@admin.example')).toHaveLength(1);
  expect(await rows('boss@a.example')).toEqual([]); // carl is not in a.example
  expect(await rows('ann@a.example')).toEqual([]);
});

test('validation: 1 to 500 ids, a known action; authentication required', async () => {
  const id = await mail(['ann@a.example'], 'valid');
  for (const payload of [
    { ids: [], action: 'delete' },
    { ids: Array.from({ length: BULK_MAX_IDS + 1 }, (_, i) => `id${i}`), action: 'delete' },
    { ids: [id], action: 'archive' },
    { ids: [''], action: 'delete' },
    { ids: id, action: 'delete' },
    { action: 'delete' },
  ]) {
    const res = await bulk('ann@a.example', payload);
    expect([JSON.stringify(payload).slice(0, 60), res.statusCode]).toEqual([JSON.stringify(payload).slice(0, 60), 400]);
    expect(res.json().code).toBe('validation_error');
  }
  expect(await statusOf(id, 'ann@a.example')).toBe('pending');
  const anonymous = await t.app.inject({
    method: 'POST',
    url: '/api/quarantine/bulk/',
    payload: { ids: [id], action: 'delete' },
  });
  expect(anonymous.statusCode).toBe(401);
  // 500 ids are accepted (unknown ones are simply reported).
  const many = await bulkOk(
    'ann@a.example',
    Array.from({ length: BULK_MAX_IDS }, (_, i) => (i === 0 ? id : `unknown${i}`)),
    'delete',
  );
  expect(many).toHaveLength(BULK_MAX_IDS);
  expect(many[0]).toEqual({ id, status: 'deleted' });
  expect(many.filter((r) => r.code === 'email_not_found')).toHaveLength(BULK_MAX_IDS - 1);
  // Ids no e-mail could have are not written to the audit trail (anyone could fill it with text).
  expect(await historyOf(['unknown1', `unknown${BULK_MAX_IDS - 1}`])).toEqual([]);
});
