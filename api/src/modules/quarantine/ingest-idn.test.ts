import { bearer } from '../../test/helpers';
import {
  domainCounters,
  globalCounters,
  ingest,
  ingestOk,
  meta,
  mime,
  recount,
  startQuarantineSuite,
  type QuarantineSuite,
} from '../../test/quarantine';

// Issue 21 item 5: an IDN recipient is stored in the A-label form, the form of the console's
// domains, so the domain admin of xn--bcher-kva.example sees mail sent to user@bücher.example.

const BOSS = 'boss@xn--bcher-kva.example';
const ANN = 'ann@xn--bcher-kva.example';
let s: QuarantineSuite;

beforeAll(async () => {
  s = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    // The domain given by its U-label: stored as the A-label, as every domain is.
    [BOSS, 'domain_admin', 'bücher.example'],
    [ANN, 'user', undefined],
  ]);
});
afterAll(() => s.close());

const get = (who: string, url: string) => s.t.app.inject({ method: 'GET', url, headers: bearer(s.tokens[who]!) });

describe('mail to a U-label address', () => {
  let id: string;
  beforeAll(async () => {
    id = await ingestOk(
      s.t,
      meta({ rcpt_to: ['Ann@Bücher.Example', 'john.doe@BÜCHER.example', 'carl@a.example'] }),
      mime({ subject: 'IDN mail' }),
    );
  });

  test('is stored with the A-label domain (recipient and domain columns)', async () => {
    const rows = await s.t.db
      .selectFrom('quarantine_recipients')
      .select(['recipient', 'domain'])
      .where('message_id', '=', id)
      .orderBy('recipient')
      .execute();
    expect(rows).toEqual([
      { recipient: ANN, domain: 'xn--bcher-kva.example' },
      { recipient: 'carl@a.example', domain: 'a.example' },
      { recipient: 'john.doe@xn--bcher-kva.example', domain: 'xn--bcher-kva.example' },
    ]);
  });

  test('the domain admin of xn--bcher-kva.example sees it: list, detail, dashboard, statistics', async () => {
    const list = await get(BOSS, '/api/quarantine/');
    expect(list.statusCode).toBe(200);
    const item = list.json().results.find((r: { id: string }) => r.id === id);
    expect(item?.recipients.sort()).toEqual([ANN, 'john.doe@xn--bcher-kva.example']);
    // The recipient filter as a person types it: its domain is compared in the A-label form.
    for (const recipient of ['Ann@Bücher.Example', 'ann@bücher.ex', 'ann@xn--bcher']) {
      const found = await get(BOSS, `/api/quarantine/?recipient=${encodeURIComponent(recipient)}`);
      expect([recipient, found.json().results.map((r: { id: string }) => r.id)]).toEqual([recipient, [id]]);
    }

    const detail = await get(BOSS, `/api/quarantine/${id}/`);
    expect(detail.statusCode).toBe(200);
    expect(
      detail
        .json()
        .recipients.map((r: { address: string }) => r.address)
        .sort(),
    ).toEqual([ANN, 'john.doe@xn--bcher-kva.example']);

    expect((await get(BOSS, '/api/dashboard/')).json()).toMatchObject({ pending: 2 });
    expect(await domainCounters(s.t, 'xn--bcher-kva.example')).toMatchObject({ pending: 2 });
    expect((await get(BOSS, '/api/statistics/?days=7')).json().totals.quarantined).toBe(2);
  });

  test('the user ann@xn--bcher-kva.example sees her copy (and her statistics)', async () => {
    const detail = await get(ANN, `/api/quarantine/${id}/`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().recipients.map((r: { address: string }) => r.address)).toEqual([ANN]);
    expect((await get(ANN, '/api/statistics/?days=7')).json().totals.quarantined).toBe(1);
  });

  test('the domain admin can release it; the local part goes out as it was written', async () => {
    const before = s.sink.messages.length;
    const res = await s.t.app.inject({
      method: 'POST',
      url: `/api/quarantine/${id}/release/`,
      headers: bearer(s.tokens[BOSS]!),
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    // smtp-server hands the domain over in Unicode whatever was on the wire.
    expect(
      s.sink.messages
        .slice(before)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(['Ann@bücher.example', 'john.doe@bücher.example']);
  });

  test('the same mail again, A-label spelling, is the same message (one form in the dedup key)', async () => {
    const raw = mime({ subject: 'twice' });
    const first = await ingestOk(s.t, meta({ rcpt_to: ['eve@bücher.example'] }), raw);
    expect(await ingestOk(s.t, meta({ rcpt_to: ['eve@xn--bcher-kva.example'] }), raw)).toBe(first);
  });
});

describe('mail from a U-label address', () => {
  let id: string;
  beforeAll(async () => {
    id = await ingestOk(
      s.t,
      meta({ mail_from: 'X@Bücher.Example', rcpt_to: [ANN] }),
      mime({ subject: 'IDN sender', from: '"Ex" <x@bücher.example>' }),
    );
  });

  test('is stored with the A-label domain (envelope sender, header From, sender domain)', async () => {
    const row = await s.t.db
      .selectFrom('quarantine_messages')
      .select(['envelope_from', 'sender', 'sender_domain'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // The envelope sender keeps its local part's case: it is MAIL FROM at a release.
    expect(row).toEqual({
      envelope_from: 'X@xn--bcher-kva.example',
      sender: 'x@xn--bcher-kva.example',
      sender_domain: 'xn--bcher-kva.example',
    });
  });

  test('the sender filter finds it by either spelling, as an address or a domain', async () => {
    for (const sender of ['x@bücher.example', 'X@BÜCHER.EXAMPLE', 'x@xn--bcher-kva.example', 'bücher.example']) {
      const found = await get('root@admin.example', `/api/quarantine/?sender=${encodeURIComponent(sender)}`);
      expect([sender, found.json().results.map((r: { id: string }) => r.id)]).toEqual([sender, [id]]);
    }
  });
});

describe('the recipient filter', () => {
  test('a domain without @ is compared in the A-label form', async () => {
    const id = await ingestOk(s.t, meta({ rcpt_to: ['zoe@bücher.example'] }), mime({ subject: 'to zoe' }));
    for (const recipient of ['bücher.example', 'BÜCHER.example', 'zoe@bücher.example']) {
      const found = await get('root@admin.example', `/api/quarantine/?recipient=${encodeURIComponent(recipient)}`);
      const ids = found.json().results.map((r: { id: string }) => r.id);
      expect({ recipient, found: ids.includes(id) }).toEqual({ recipient, found: true });
    }
  });

  test('a term without @ or dot stays as typed: a non-ASCII local part is found', async () => {
    const id = await ingestOk(s.t, meta({ rcpt_to: ['rené@a.example'] }), mime({ subject: 'to rené' }));
    const found = await get('root@admin.example', `/api/quarantine/?recipient=${encodeURIComponent('rené')}`);
    expect(found.json().results.map((r: { id: string }) => r.id)).toEqual([id]);
  });

  test('a dotted term without @ is also matched as typed: rené.dupont is a local part, not a domain', async () => {
    const id = await ingestOk(
      s.t,
      meta({ mail_from: 'rené.dupont@c.example', rcpt_to: ['rené.dupont@d.example'] }),
      mime({ subject: 'from and to rené.dupont' }),
    );
    for (const filter of ['sender', 'recipient']) {
      const found = await get('root@admin.example', `/api/quarantine/?${filter}=${encodeURIComponent('rené.dupont')}`);
      const ids = found.json().results.map((r: { id: string }) => r.id);
      expect({ filter, found: ids.includes(id) }).toEqual({ filter, found: true });
    }
  });
});

test('a recipient whose local part is over 64 octets: 400 naming it, nothing stored', async () => {
  const before = { rows: await recount(s.t), global: await globalCounters(s.t) };
  // 33 × 'é' is 33 characters but 66 octets in UTF-8: octets are counted.
  for (const local of ['a'.repeat(65), 'é'.repeat(33)]) {
    const res = await ingest(s.t, meta({ rcpt_to: ['ok@a.example', `${local}@a.example`] }), mime());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      errors: { 'meta.rcpt_to.1': 'The part before @ is at most 64 bytes' },
    });
  }
  expect({ rows: await recount(s.t), global: await globalCounters(s.t) }).toEqual(before);
  // 64 octets is the limit, not over it.
  expect(await ingestOk(s.t, meta({ rcpt_to: [`${'a'.repeat(64)}@a.example`] }))).toBeTruthy();
});
