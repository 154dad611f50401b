import { randomBytes } from 'node:crypto';
import { INGEST_LIMITS } from '@qc/contracts';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { ingestForm, INGEST_TOKEN, meta, mime, recount } from '../../test/quarantine';

// The ingest form as other clients than the Haraka plugin build it: `meta` sent as a file part
// (curl -F meta=@meta.json) was answered 413 "too large" for a 1 KB message (issue 21).

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  await t.createUser({ email: 'root@admin.example', role: 'admin' });
  admin = (await t.login('root@admin.example')).access;
});
afterAll(() => t.close());

const post = (form: { payload: Buffer; headers: Record<string, string> }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/quarantine/ingest/',
    headers: { ...form.headers, authorization: `Bearer ${INGEST_TOKEN}` },
    payload: form.payload,
  });

/** A multipart body from raw parts: [name, filename or null, content]. */
function formOf(parts: [string, string | null, string | Buffer][]) {
  const boundary = `----qc${randomBytes(8).toString('hex')}`;
  const chunks = parts.flatMap(([name, filename, content]) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
        (filename === null ? '' : `; filename="${filename}"\r\nContent-Type: application/octet-stream`) +
        '\r\n\r\n',
    ),
    Buffer.from(content),
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

test('meta as a file part (curl -F meta=@meta.json) is taken like the text field: 201, the same fields', async () => {
  for (const type of [undefined, 'application/json', 'application/octet-stream']) {
    const subject = `Meta as a file ${type ?? 'untyped'}`;
    const m = meta({ rcpt_to: ['ann@a.example'], mail_from: 'file@sender.example' });
    const res = await post(ingestForm(m, mime({ subject }), { metaFile: 'meta.json', metaType: type }));
    expect([type, res.statusCode]).toEqual([type, 201]);
    const d = await t.app.inject({ method: 'GET', url: `/api/quarantine/${res.json().id}/`, headers: bearer(admin) });
    expect(d.json()).toMatchObject({ uuid: m.uuid, subject, envelope_from: 'file@sender.example' });
  }
});

test('meta as a file: bad JSON, bad UTF-8 or a bad field → 400 naming meta; nothing stored', async () => {
  const before = await recount(t);
  const bad: [string | Buffer, Record<string, unknown>][] = [
    ['{"uuid": ', { meta: 'Not valid JSON.' }],
    [Buffer.from([0x7b, 0xff, 0x7d]), { meta: 'Not valid JSON.' }],
    [JSON.stringify(meta({ rcpt_to: [] })), { 'meta.rcpt_to': expect.any(String) }],
  ];
  for (const [content, errors] of bad) {
    const res = await post(
      formOf([
        ['meta', 'meta.json', content],
        ['message', 'm.eml', mime()],
      ]),
    );
    expect([res.statusCode, res.json().code, res.json().errors]).toEqual([400, 'validation_error', errors]);
  }
  expect(await recount(t)).toEqual(before);
});

test('meta given twice (text and file, or two files), or two messages → 400 naming the field', async () => {
  const before = await recount(t);
  const m = JSON.stringify(meta());
  const cases: [[string, string | null, string | Buffer][], string][] = [
    [
      [
        ['meta', null, m],
        ['meta', 'meta.json', m],
        ['message', 'm.eml', mime()],
      ],
      'meta',
    ],
    [
      [
        ['meta', 'a.json', m],
        ['meta', 'b.json', m],
        ['message', 'm.eml', mime()],
      ],
      'meta',
    ],
    [
      [
        ['meta', null, m],
        ['meta', null, m],
        ['message', 'm.eml', mime()],
      ],
      'meta',
    ],
    [
      [
        ['meta', null, m],
        ['message', 'm.eml', mime()],
        ['message', 'n.eml', mime()],
      ],
      'message',
    ],
  ];
  for (const [parts, field] of cases) {
    const res = await post(formOf(parts));
    expect([res.statusCode, res.json().errors]).toEqual([400, { [field]: 'Sent more than once.' }]);
  }
  expect(await recount(t)).toEqual(before);
});

test('a meta file over the meta limit → 413, like the text field', async () => {
  const huge = JSON.stringify(meta({ pad: 'x'.repeat(INGEST_LIMITS.metaMaxBytes) }));
  const asFile = await post(ingestForm(JSON.parse(huge), mime(), { metaFile: 'meta.json' }));
  const asText = await post(ingestForm(JSON.parse(huge), mime()));
  expect([asFile.statusCode, asFile.json().code]).toEqual([413, 'payload_too_large']);
  expect([asText.statusCode, asText.json().code]).toEqual([413, 'payload_too_large']);
});
