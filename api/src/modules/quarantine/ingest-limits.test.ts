import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../../test/helpers';
import { endlessPart as endless, MB, multipartHead, SLACK, streamUpload } from '../../test/oversize-upload';
import { INGEST_TOKEN, ingestOk, meta, mime } from '../../test/quarantine';

// Issue 21 item 4: an oversize ingest upload is answered 413 and the connection closed at
// QC_INGEST_MAX_BYTES, not read to its end; nothing of it is stored.

const LIMIT = 4 * MB;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_INGEST_MAX_BYTES: String(LIMIT) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const BOUNDARY = 'qcIngestLimitBoundary';
const head = (headers: Record<string, string>) =>
  multipartHead('/api/quarantine/ingest/', BOUNDARY, INGEST_TOKEN, headers);
const endlessPart = (disposition: string, chunked: boolean) =>
  endless(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="meta"\r\n\r\n${JSON.stringify(meta())}\r\n` +
      `--${BOUNDARY}\r\ncontent-disposition: form-data; ${disposition}\r\n\r\n`,
    chunked,
  );
const stream = (headers: string, pieces: Generator<Buffer>) => streamUpload(port, headers, pieces);

const stored = async () =>
  Number(
    (
      await t.db
        .selectFrom('quarantine_messages')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('a declared Content-Length over QC_INGEST_MAX_BYTES → 413 at once, nothing read', async () => {
  const out = await stream(
    head({ 'content-length': String(500 * MB) }),
    endlessPart('name="message"; filename="m.eml"\r\ncontent-type: message/rfc822', false),
  );
  expect(out.status).toBe(413);
  expect(out.body).toContain('payload_too_large');
  expect(out.connection).toBe('close');
  expect(out.sent).toBeLessThan(SLACK);
  expect(await stored()).toBe(0);
});

test('a chunked message file past QC_INGEST_MAX_BYTES → 413, the connection closes near the limit, nothing stored', async () => {
  const out = await stream(
    head({ 'transfer-encoding': 'chunked' }),
    endlessPart('name="message"; filename="m.eml"\r\ncontent-type: message/rfc822', true),
  );
  expect(out.status).toBe(413);
  expect(out.body).toContain('payload_too_large');
  expect(out.connection).toBe('close');
  expect(out.sent).toBeLessThan(LIMIT + SLACK);
  expect(await stored()).toBe(0);
});

test('a chunked text field without end → 413 at the limit, not read to the end', async () => {
  const out = await stream(head({ 'transfer-encoding': 'chunked' }), endlessPart('name="comment"', true));
  expect(out.status).toBe(413);
  expect(out.body).toContain('payload_too_large');
  expect(out.connection).toBe('close');
  expect(out.sent).toBeLessThan(LIMIT + SLACK);
  expect(await stored()).toBe(0);
});

test('the server still takes a message after those (nothing left hanging)', async () => {
  expect(await ingestOk(t, meta(), mime())).toEqual(expect.any(String));
  expect(await stored()).toBe(1);
});
