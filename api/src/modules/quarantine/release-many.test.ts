import { bearer } from '../../test/helpers';
import {
  globalCounters,
  ingestOk,
  meta,
  mime,
  recount,
  startQuarantineSuite,
  type QuarantineSuite,
} from '../../test/quarantine';

// A release to many recipients against a real SMTP relay that takes at most so many RCPTs per
// transaction and answers 452 past them (RFC 5321 4.5.3.1.10): the rest go in further transactions.

let suite: QuarantineSuite;
beforeAll(async () => {
  suite = await startQuarantineSuite([['root@admin.example', 'admin', undefined]]);
});
afterAll(() => suite.close());
beforeEach(() => {
  const { sink, t } = suite;
  sink.mode = 'accept';
  sink.rejectRecipients.clear();
  sink.deferRecipients.clear();
  sink.maxRcpts = 100;
  sink.offered.length = 0;
  sink.afterAccept = null;
  t.config.relayMaxRcpts = 100;
});

const addresses = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `r${String(i).padStart(3, '0')}.${tag}@many.example`);

const release = (id: string) =>
  suite.t.app.inject({
    method: 'POST',
    url: `/api/quarantine/${id}/release/`,
    headers: bearer(suite.tokens['root@admin.example']!),
  });

const statuses = async (id: string) => {
  const rows = await suite.t.db
    .selectFrom('quarantine_recipients')
    .select(['recipient', 'status'])
    .where('message_id', '=', id)
    .execute();
  const by: Record<string, string[]> = {};
  for (const r of rows) (by[r.status] ??= []).push(r.recipient);
  for (const list of Object.values(by)) list.sort();
  return by;
};

/** Every copy of the message the relay took, by recipient. */
const copiesOf = (subject: string) => {
  const copies = new Map<string, number>();
  for (const m of suite.sink.messages.filter((x) => x.raw.includes(Buffer.from(subject)))) {
    for (const to of m.to) copies.set(to, (copies.get(to) ?? 0) + 1);
  }
  return copies;
};

const releaseHistory = (id: string) =>
  suite.t.db
    .selectFrom('history')
    .select(['action', 'result', 'code'])
    .where('email_id', '=', id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

async function expectCountersConsistent() {
  expect(await globalCounters(suite.t)).toEqual(await recount(suite.t));
}

test('250 recipients, a relay that answers 452 after 100 RCPTs: one release delivers to all 250, once each', async () => {
  const to = addresses(250, 'all');
  const id = await ingestOk(suite.t, meta({ rcpt_to: to }), mime({ subject: 'Many recipients' }));
  const res = await release(id);
  expect(res.statusCode).toBe(200);
  expect(res.json().status).toBe('released');
  expect([...res.json().delivery.accepted].sort()).toEqual(to);
  expect(res.json().delivery.rejected).toEqual([]);
  expect(await statuses(id)).toEqual({ released: to });
  const copies = copiesOf('Many recipients');
  expect(copies.size).toBe(250);
  expect([...copies.values()].every((n) => n === 1)).toBe(true);
  // Never more than 100 offered in one transaction: the relay had no reason to answer 452.
  expect(suite.sink.offered).toEqual([100, 100, 50]);
  expect(await releaseHistory(id)).toEqual([{ action: 'release', result: 'success', code: null }]);
  await expectCountersConsistent();
});

test('a relay whose limit is lower (452 after 40): the recipients it put off go in the next transactions', async () => {
  suite.sink.maxRcpts = 40;
  const to = addresses(250, 'low');
  const id = await ingestOk(suite.t, meta({ rcpt_to: to }), mime({ subject: 'Lower limit' }));
  const res = await release(id);
  expect(res.statusCode).toBe(200);
  expect(res.json().status).toBe('released');
  expect(await statuses(id)).toEqual({ released: to });
  const copies = copiesOf('Lower limit');
  expect([copies.size, [...copies.values()].every((n) => n === 1)]).toEqual([250, true]);
  // The first transaction learns the limit (100 offered, 40 taken); the others keep to it.
  expect(suite.sink.offered).toEqual([100, 40, 40, 40, 40, 40, 10]);
  await expectCountersConsistent();
});

test('QC_RELAY_MAX_RCPTS sets the recipients per transaction', async () => {
  suite.t.config.relayMaxRcpts = 30;
  const to = addresses(70, 'cfg');
  const id = await ingestOk(suite.t, meta({ rcpt_to: to }), mime({ subject: 'Configured limit' }));
  expect((await release(id)).statusCode).toBe(200);
  expect(suite.sink.offered).toEqual([30, 30, 10]);
  expect(await statuses(id)).toEqual({ released: to });
});

test('refused recipients among 250: partially released; a retry sends only to those, in one transaction', async () => {
  const to = addresses(250, 'part');
  const refused = [to[3]!, to[120]!, to[249]!];
  for (const r of refused) suite.sink.rejectRecipients.add(r);
  const id = await ingestOk(suite.t, meta({ rcpt_to: to }), mime({ subject: 'Partly refused' }));
  const res = await release(id);
  expect(res.statusCode).toBe(200);
  expect(res.json().status).toBe('partially_released');
  expect([...res.json().delivery.rejected].sort()).toEqual(refused); // claimed rows come in no set order
  expect(res.json().delivery.accepted).toHaveLength(247);
  expect(await statuses(id)).toEqual({
    released: to.filter((r) => !refused.includes(r)),
    release_failed: refused,
  });
  await expectCountersConsistent();

  suite.sink.rejectRecipients.clear();
  suite.sink.offered.length = 0;
  const retry = await release(id);
  expect(retry.statusCode).toBe(200);
  expect(retry.json()).toMatchObject({ status: 'released', delivery: { rejected: [] } });
  expect([...retry.json().delivery.accepted].sort()).toEqual(refused);
  expect(suite.sink.offered).toEqual([3]);
  expect(await statuses(id)).toEqual({ released: to });
  const copies = copiesOf('Partly refused');
  expect([copies.size, [...copies.values()].every((n) => n === 1)]).toEqual([250, true]);
  expect(await releaseHistory(id)).toEqual([
    { action: 'release', result: 'success', code: null },
    { action: 'release', result: 'success', code: null },
  ]);
  await expectCountersConsistent();
});

test('a relay that answers 452 to the first RCPT of a transaction is not asked again and again', async () => {
  suite.sink.maxRcpts = 0;
  const to = addresses(5, 'none');
  const id = await ingestOk(suite.t, meta({ rcpt_to: to }), mime({ subject: 'Never taken' }));
  const res = await release(id);
  expect([res.statusCode, res.json().code]).toEqual([502, 'relay_refused']);
  expect(await statuses(id)).toEqual({ release_failed: to });
  await expectCountersConsistent();
});

test('a transaction that fails after others went through: those stay released, the rest release_failed', async () => {
  const to = addresses(150, 'mid');
  // The relay refuses every RCPT of the second transaction (550): the first went through.
  for (const r of to.slice(100)) suite.sink.rejectRecipients.add(r);
  const id = await ingestOk(suite.t, meta({ rcpt_to: to }), mime({ subject: 'Second refused' }));
  const res = await release(id);
  expect(res.statusCode).toBe(200);
  expect(res.json().status).toBe('partially_released');
  expect(await statuses(id)).toEqual({ released: to.slice(0, 100), release_failed: to.slice(100) });
  await expectCountersConsistent();
});

test('a connection lost after the data of the second transaction: release_unknown for those only; a retry sends the rest', async () => {
  const to = addresses(250, 'lost');
  suite.sink.afterAccept = () => {
    suite.sink.mode = 'drop-after-data'; // the first copy is queued, the next one is lost
  };
  const id = await ingestOk(suite.t, meta({ rcpt_to: to }), mime({ subject: 'Lost midway' }));
  const res = await release(id);
  expect([res.statusCode, res.json().status]).toEqual([200, 'partially_released']);
  const first = await statuses(id);
  expect([first.released?.length, first.release_unknown?.length, first.release_failed?.length]).toEqual([100, 100, 50]);
  expect(suite.sink.offered).toEqual([100, 100]); // the third transaction was not tried
  await expectCountersConsistent();

  // A retry without confirmation sends only to the 50 never tried; the 100 unknown wait for it.
  suite.sink.afterAccept = null;
  suite.sink.mode = 'accept';
  suite.sink.offered.length = 0;
  expect((await release(id)).statusCode).toBe(200);
  expect(suite.sink.offered).toEqual([50]);
  const second = await statuses(id);
  expect([second.released?.length, second.release_unknown]).toEqual([150, first.release_unknown]);
  const copies = copiesOf('Lost midway');
  expect([copies.size, [...copies.values()].every((n) => n === 1)]).toEqual([150, true]);
  expect(await releaseHistory(id)).toEqual([
    { action: 'release', result: 'success', code: null },
    { action: 'release', result: 'success', code: null },
  ]);
  await expectCountersConsistent();
});
