import { createHash } from 'node:crypto';
import { bearer, type TestApp } from '../../test/helpers';
import { ingestOk, meta, type QuarantineSuite, startQuarantineSuite } from '../../test/quarantine';
import { carriedHeaders, decodeEncodedWords } from './message-inspect';

let suite: QuarantineSuite;
let t: TestApp;
let tokens: Record<string, string>;

const DOWNLOADS = 6;

beforeAll(async () => {
  suite = await startQuarantineSuite(
    [
      ['root@admin.example', 'admin', undefined],
      ['boss@a.example', 'domain_admin', 'a.example'],
      ['boss@b.example', 'domain_admin', 'b.example'],
      ['ann@a.example', 'user', 'a.example'],
      ['bob@a.example', 'user', 'a.example'],
      ['dan@a.example', 'user', 'a.example'],
    ],
    { QC_BUDGET_DOWNLOADS: String(DOWNLOADS) },
  );
  ({ t, tokens } = suite);
});
afterAll(() => suite.close());

// A PDF (as its magic bytes say) declared as an image, and a zip named .txt declared as text.
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]);

function withAttachments(subject: string): Buffer {
  const b = 'BOUNDARY42';
  const lines = [
    'From: =?UTF-8?B?U2VydmljZSBjbGllbnTDqGxl?= <billing@bank.example>',
    'To: ann@a.example, bob@a.example',
    `Subject: =?UTF-8?Q?${subject}_=C3=A9t=C3=A9?=`,
    'Message-ID: <att-1@bank.example>',
    'Date: Tue, 01 Dec 2026 10:00:00 +0100',
    'X-Custom-Header: first',
    '  folded',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${b}"`,
    '',
    `--${b}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'See attached.',
    `--${b}`,
    'Content-Type: image/png; name="photo.png"',
    'Content-Disposition: attachment; filename="photo.png"',
    'Content-Transfer-Encoding: base64',
    '',
    PDF.toString('base64'),
    `--${b}`,
    'Content-Type: text/plain; name="../../etc/notes.txt"',
    'Content-Disposition: attachment; filename="../../etc/notes.txt"',
    'Content-Transfer-Encoding: base64',
    '',
    ZIP.toString('base64'),
    `--${b}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

const get = (email: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tokens[email]!) });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const downloadsOf = (id: string) =>
  t.db
    .selectFrom('history')
    .select(['action', 'result', 'code', 'actor_email'])
    .where('email_id', '=', id)
    .where('action', '=', 'download')
    .execute();

describe('attachments of an e-mail (issue 23)', () => {
  let id: string;
  let other: string;
  beforeAll(async () => {
    id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example', 'bob@a.example'] }), withAttachments('Facture'));
    other = await ingestOk(t, meta({ rcpt_to: ['carl@b.example'] }), withAttachments('Other'));
  });

  test('the detail lists each attachment with its index, declared and detected type, size and SHA-256', async () => {
    const res = await get('ann@a.example', `/api/quarantine/${id}/`);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.attachments).toEqual([
      {
        index: 0,
        name: 'photo.png',
        type: 'image/png',
        detected_type: 'application/pdf',
        size: PDF.length,
        sha256: sha(PDF),
      },
      {
        index: 1,
        name: '../../etc/notes.txt',
        type: 'text/plain',
        detected_type: 'application/zip',
        size: ZIP.length,
        sha256: sha(ZIP),
      },
    ]);
    // Item 7: the display name, decoded; item 9: the headers as carried (names, order, raw Date, decoded).
    expect(d.sender_name).toBe('Service clientèle');
    const names = d.headers.map((h: { name: string }) => h.name);
    expect(names.slice(0, 8)).toEqual([
      'From',
      'To',
      'Subject',
      'Message-ID',
      'Date',
      'X-Custom-Header',
      'MIME-Version',
      'Content-Type',
    ]);
    const value = (n: string) => d.headers.find((h: { name: string }) => h.name === n)?.value;
    expect(value('Date')).toBe('Tue, 01 Dec 2026 10:00:00 +0100');
    expect(value('Subject')).toBe('Facture été');
    expect(value('From')).toBe('Service clientèle <billing@bank.example>');
    expect(value('X-Custom-Header')).toBe('first  folded');
  });

  test('downloads one attachment as an attachment, never rendered, with a safe name, recorded', async () => {
    const res = await get('ann@a.example', `/api/quarantine/${id}/attachments/1/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"; filename\*=UTF-8''/);
    expect(disposition).not.toContain('/');
    expect(disposition).toContain('notes.txt');
    expect(sha(res.rawPayload)).toBe(sha(ZIP));
    expect(await downloadsOf(id)).toEqual([
      { action: 'download', result: 'success', code: null, actor_email: 'ann@a.example' },
    ]);
  });

  test('scope as the raw download: own recipient, own domain, admin; others 404', async () => {
    expect((await get('boss@a.example', `/api/quarantine/${id}/attachments/0/`)).statusCode).toBe(200);
    expect((await get('root@admin.example', `/api/quarantine/${id}/attachments/0/`)).statusCode).toBe(200);
    const outsider = await get('boss@b.example', `/api/quarantine/${id}/attachments/0/`);
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().code).toBe('email_not_found');
    const notHers = await get('ann@a.example', `/api/quarantine/${other}/attachments/0/`);
    expect(notHers.statusCode).toBe(404);
    const rows = await downloadsOf(id);
    expect(rows.filter((r) => r.result === 'success').map((r) => r.actor_email)).toEqual([
      'ann@a.example',
      'boss@a.example',
      'root@admin.example',
    ]);
    // The outsider's probe on a message that exists is recorded as a failure.
    expect(rows.filter((r) => r.result === 'failure')).toEqual([
      expect.objectContaining({ actor_email: 'boss@b.example', code: 'email_not_found' }),
    ]);
  });

  test('an index it does not have: 404, nothing recorded; not a number: 400', async () => {
    const before = (await downloadsOf(id)).length;
    const res = await get('bob@a.example', `/api/quarantine/${id}/attachments/2/`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('attachment_not_found');
    expect((await get('bob@a.example', `/api/quarantine/${id}/attachments/x/`)).statusCode).toBe(400);
    expect((await get('bob@a.example', `/api/quarantine/${id}/attachments/-1/`)).statusCode).toBe(400);
    expect((await downloadsOf(id)).length).toBe(before);
  });

  test('counted in the download budget, shared with the raw download', async () => {
    const codes: number[] = [];
    for (let i = 0; i < DOWNLOADS - 1; i++) {
      codes.push((await get('dan@a.example', `/api/quarantine/${id}/attachments/0/`)).statusCode);
    }
    codes.push((await get('dan@a.example', `/api/quarantine/${id}/raw/`)).statusCode);
    const refused = await get('dan@a.example', `/api/quarantine/${id}/attachments/0/`);
    expect(codes).toEqual(Array(DOWNLOADS).fill(404)); // dan is not a recipient: each still counts
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
  });
});

test('OpenAPI documents the attachment and release-to routes', async () => {
  const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  expect(Object.keys(spec.paths)).toEqual(
    expect.arrayContaining(['/api/quarantine/{id}/attachments/{index}/', '/api/quarantine/{id}/release-to/']),
  );
});

describe('headers as carried', () => {
  test('encoded-words decoded (B, Q, adjacent words joined), the rest as written', () => {
    expect(decodeEncodedWords('=?UTF-8?B?w6l0w6k=?= =?ISO-8859-1?Q?caf=E9?= plain')).toBe('étécafé plain');
    expect(decodeEncodedWords('no words here')).toBe('no words here');
    expect(decodeEncodedWords('=?x-unknown?Q?a_b?=')).toBe('a b');
    expect(
      carriedHeaders([
        { key: 'date', line: 'Date: Tue, 01 Dec 2026 10:00:00 +0100' },
        { key: 'x-a', line: 'X-A: one\r\n\ttwo\u0007' },
      ]),
    ).toEqual([
      { name: 'Date', value: 'Tue, 01 Dec 2026 10:00:00 +0100' },
      { name: 'X-A', value: 'one\ttwo' },
    ]);
  });
});
