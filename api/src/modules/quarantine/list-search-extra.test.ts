import { bearer, type TestApp } from '../../test/helpers';
import { ingestOk, meta, startQuarantineSuite, type QuarantineSuite } from '../../test/quarantine';
import { searchExtra } from '../../db/migration-0021-search-attachments-urls';
import { listKeysQuery } from './list.repository';

/**
 * The list's search also finds a message by an attachment's name or a URL of its body (issue 23 #3),
 * folded like the rest; not by the other words of its body; a user only within their own mail.
 */
let suite: QuarantineSuite;
let t: TestApp;
let tokens: Record<string, string>;
const ids: Record<string, string> = {};

/** A multipart message: a text part, an optional HTML part, an optional attachment. */
function multipart(opts: { to: string; subject: string; text: string; html?: string; attachment?: string }): Buffer {
  const b = 'b0undary';
  const lines = [
    'From: Billing <billing@shop.example>',
    `To: ${opts.to}`,
    `Subject: ${opts.subject}`,
    'Date: Tue, 01 Dec 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${b}"`,
    '',
    `--${b}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    opts.text,
  ];
  if (opts.html) lines.push(`--${b}`, 'Content-Type: text/html; charset=utf-8', '', opts.html);
  if (opts.attachment) {
    lines.push(
      `--${b}`,
      'Content-Type: application/pdf',
      `Content-Disposition: attachment; filename*=utf-8''${encodeURIComponent(opts.attachment)}`,
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF-1.4 test').toString('base64'),
    );
  }
  lines.push(`--${b}--`, '');
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

beforeAll(async () => {
  suite = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    ['ann@a.example', 'user', 'a.example'],
  ]);
  ({ t, tokens } = suite);
  ids.invoice = await ingestOk(
    t,
    meta({ rcpt_to: ['ann@a.example'] }),
    multipart({ to: 'ann@a.example', subject: 'Votre document', text: 'Bonjour.', attachment: 'Facture-Été.pdf' }),
  );
  ids.phish = await ingestOk(
    t,
    meta({ rcpt_to: ['ann@a.example'] }),
    multipart({
      to: 'ann@a.example',
      subject: 'Sécurité du compte',
      text: 'Votre compte quokkasecret est bloqué.',
      html: '<p>Votre compte est bloqué. <a href="https://login.evil.example/reset">Réactiver</a></p>',
    }),
  );
  ids.other = await ingestOk(
    t,
    meta({ rcpt_to: ['bob@b.example'] }),
    multipart({ to: 'bob@b.example', subject: 'Pour Bob', text: 'Salut.', attachment: 'Contrat-Privé-Bob.pdf' }),
  );
});
afterAll(() => suite.close());

async function search(email: string, q: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/quarantine/?status=all&q=${encodeURIComponent(q)}`,
    headers: bearer(tokens[email]!),
  });
  expect(res.statusCode).toBe(200);
  return res.json().results.map((r: { id: string }) => r.id);
}

test.each([
  ['facture-ete', 'invoice'],
  ['FACTURE', 'invoice'],
  ['Été.pdf', 'invoice'],
  ['evil.example', 'phish'],
  ['LOGIN.EVIL', 'phish'],
  ['/reset', 'phish'],
])('"%s" finds the %s message by its attachment name or URL', async (q, name) => {
  expect(await search('ann@a.example', q)).toEqual([ids[name]]);
  expect(await search('root@admin.example', q)).toEqual([ids[name]]);
});

test('a word only in the body text (no URL) finds nothing: the body itself is not searched', async () => {
  expect(await search('root@admin.example', 'quokkasecret')).toEqual([]);
  expect(await search('root@admin.example', 'Réactiver')).toEqual([]);
});

test("a user does not find another user's mail by its attachment name", async () => {
  expect(await search('ann@a.example', 'contrat-prive')).toEqual([]);
  expect(await search('root@admin.example', 'contrat-prive')).toEqual([ids.other]);
});

test('row by row (many hits, or a short term) attachment names and URLs match too, in scope', async () => {
  const rows = async (scope: Parameters<typeof listKeysQuery>[1], q: string) =>
    (await listKeysQuery(t.db, scope, { statuses: null, q }, null, 10).execute(t.db)).rows.map((r) => r.message_id);
  expect(await rows({ kind: 'all' }, 'facture-été')).toEqual([ids.invoice]);
  expect(await rows({ kind: 'all' }, 'evil.example')).toEqual([ids.phish]);
  expect(await rows({ kind: 'recipient', addresses: ['ann@a.example'] }, 'contrat')).toEqual([]);
});

test('searchExtra keeps at most 100 names and 200 URLs of 300 characters each', () => {
  const text = searchExtra(
    Array.from({ length: 150 }, (_, i) => `n${i}`.padEnd(400, 'x')),
    Array.from({ length: 250 }, (_, i) => `https://u${i}.example/`),
  );
  const lines = text.split('\n');
  expect(lines).toHaveLength(300);
  expect(lines[0]).toHaveLength(300);
  expect(lines[99]).toMatch(/^n99x/);
  expect(lines[100]).toBe('https://u0.example/');
  expect(lines.at(-1)).toBe('https://u199.example/');
  expect(searchExtra(['', '  '], [])).toBe('');
});
