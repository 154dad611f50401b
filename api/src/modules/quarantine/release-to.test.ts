import { bearer, type TestApp } from '../../test/helpers';
import { replaceAddresses } from '../users/user-addresses.repository';
import {
  ingestOk,
  meta,
  mime,
  type QuarantineSuite,
  recipientStatuses,
  type Sink,
  startQuarantineSuite,
} from '../../test/quarantine';

let suite: QuarantineSuite;
let t: TestApp;
let sink: Sink;
let tokens: Record<string, string>;

beforeAll(async () => {
  suite = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['boss@b.example', 'domain_admin', 'b.example'],
    ['ann@a.example', 'user', 'a.example'],
  ]);
  ({ t, sink, tokens } = suite);
});
afterAll(() => suite.close());
beforeEach(() => {
  sink.mode = 'accept';
  sink.rejectRecipients.clear();
});

const releaseTo = (email: string, id: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/quarantine/${id}/release-to/`,
    headers: bearer(tokens[email]!),
    payload,
  });
const releaseRows = (id: string) =>
  t.db
    .selectFrom('history')
    .select(['action', 'result', 'code', 'actor_email', 'target_kind', 'target_label'])
    .where('email_id', '=', id)
    .where('action', '=', 'release')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
const sentWith = (marker: string) => sink.messages.filter((m) => m.raw.includes(Buffer.from(marker)));

describe('release to another address (issue 23)', () => {
  test('a domain_admin sends a copy to an address of their domain: the relay gets it, statuses unchanged', async () => {
    const id = await ingestOk(
      t,
      meta({ mail_from: 'sender@origin.example', rcpt_to: ['ann@a.example'] }),
      mime({ subject: 'Copy to helpdesk' }),
    );
    const res = await releaseTo('boss@a.example', id, { address: ' Helpdesk@A.example ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'released',
      delivery: { response: expect.stringMatching(/^250 /), accepted: ['helpdesk@a.example'], rejected: [] },
    });
    const sent = sentWith('Copy to helpdesk');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.from).toBe('sender@origin.example');
    expect(sent[0]!.to).toEqual(['helpdesk@a.example']);
    expect(sent[0]!.raw.toString()).toMatch(/^X-Quarantine-Released: \S+ by boss@a\.example\r\n/);
    expect(await recipientStatuses(t, id)).toEqual({ 'ann@a.example': 'pending' });
    expect(await releaseRows(id)).toEqual([
      {
        action: 'release',
        result: 'success',
        code: null,
        actor_email: 'boss@a.example',
        target_kind: 'release_to',
        target_label: 'ann@a.example → helpdesk@a.example',
      },
    ]);
    // The history page gets the target (both addresses).
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/history/?action=release',
      headers: bearer(tokens['boss@a.example']!),
    });
    expect(history.json().results.find((r: { email_id: string }) => r.email_id === id).target).toEqual({
      kind: 'release_to',
      id: null,
      label: 'ann@a.example → helpdesk@a.example',
    });
  });

  test('an admin may send to any valid address', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Copy for analysis' }));
    const res = await releaseTo('root@admin.example', id, { address: 'analyst@elsewhere.example' });
    expect(res.statusCode).toBe(200);
    expect(sentWith('Copy for analysis').map((m) => m.to)).toEqual([['analyst@elsewhere.example']]);
  });

  test('a user only to one of their own addresses; a bad or out-of-domain address: 400, nothing sent, nothing recorded', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Not to be sent' }));
    const user = await releaseTo('ann@a.example', id, { address: 'ann2@a.example' });
    expect(user.statusCode).toBe(400);
    expect(user.json().errors.address).toContain('ann@a.example');
    for (const address of ['not-an-address', 'a@b@c', 'x@a.example\r\nRCPT TO:<evil@x>', '']) {
      const res = await releaseTo('root@admin.example', id, { address });
      expect(res.statusCode).toBe(400);
    }
    const foreign = await releaseTo('boss@a.example', id, { address: 'someone@b.example' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.address).toMatch(/a\.example/);
    // A look-alike domain is not theirs either.
    expect((await releaseTo('boss@a.example', id, { address: 'x@evil-a.example' })).statusCode).toBe(400);
    expect(sentWith('Not to be sent')).toHaveLength(0);
    expect(await releaseRows(id)).toEqual([]);
  });

  test('a user with an alias: the mail to the alias sent to their primary (issue 31)', async () => {
    const ann = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'ann@a.example')
      .executeTakeFirstOrThrow();
    await replaceAddresses(t.db, ann.id, ['ann@a.example', 'sales@a.example']);
    try {
      const id = await ingestOk(t, meta({ rcpt_to: ['sales@a.example'] }), mime({ subject: 'To the alias' }));
      const res = await releaseTo('ann@a.example', id, { address: 'ann@a.example' });
      expect(res.statusCode).toBe(200);
      expect(sentWith('To the alias').map((m) => m.to)).toEqual([['ann@a.example']]);
      expect(await recipientStatuses(t, id)).toEqual({ 'sales@a.example': 'pending' });
      const other = await releaseTo('ann@a.example', id, { address: 'boss@a.example' });
      expect(other.statusCode).toBe(400);
    } finally {
      await replaceAddresses(t.db, ann.id, ['ann@a.example']);
    }
  });

  test('another domain’s mail: 404, recorded as a refused attempt, nothing sent', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Not yours' }));
    const res = await releaseTo('boss@b.example', id, { address: 'me@b.example' });
    expect(res.statusCode).toBe(404);
    expect(sentWith('Not yours')).toHaveLength(0);
    expect(await releaseRows(id)).toEqual([
      expect.objectContaining({ result: 'failure', code: 'email_not_found', actor_email: 'boss@b.example' }),
    ]);
  });

  test('the relay refuses the address: 502 relay_refused, recorded as a failure with both addresses', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Refused copy' }));
    sink.rejectRecipients.add('nobody@a.example');
    const res = await releaseTo('boss@a.example', id, { address: 'nobody@a.example' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'relay_refused', delivery: { rejected: ['nobody@a.example'] } });
    expect(await releaseRows(id)).toEqual([
      expect.objectContaining({
        result: 'failure',
        code: 'relay_refused',
        target_label: 'ann@a.example → nobody@a.example',
      }),
    ]);
    expect(await recipientStatuses(t, id)).toEqual({ 'ann@a.example': 'pending' });
  });
});
