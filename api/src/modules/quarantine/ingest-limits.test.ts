import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../../test/helpers';
import { INGEST_TOKEN, ingestOk, meta, mime } from '../../test/quarantine';

// Issue 21 item 4: an oversize ingest upload is answered 413 and the connection closed at
// QC_INGEST_MAX_BYTES, not read to its end; nothing of it is stored.

const MB = 1024 * 1024;
const LIMIT = 4 * MB;
/** What the client offers: far more than the limit, so reading it all would show. */
const OFFERED = 160 * MB;
/**
 * What may be sent before the server's close is seen: the socket buffers of both ends on loopback
 * (a few MB each with autotuning) and the responses' round trip.
 */
const SLACK = 32 * MB;

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
  [
    'POST /api/quarantine/ingest/ HTTP/1.1',
    'host: 127.0.0.1',
    `content-type: multipart/form-data; boundary=${BOUNDARY}`,
    `authorization: Bearer ${INGEST_TOKEN}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');

/** A valid `meta` field, then an endless part (the message file, or a text field), in 256 KB pieces. */
function* endlessPart(disposition: string, chunked: boolean): Generator<Buffer> {
  const frame = (b: Buffer) =>
    chunked ? Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]) : b;
  yield frame(
    Buffer.from(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="meta"\r\n\r\n${JSON.stringify(meta())}\r\n` +
        `--${BOUNDARY}\r\ncontent-disposition: form-data; ${disposition}\r\n\r\n`,
    ),
  );
  const piece = frame(Buffer.alloc(256 * 1024, 0x61));
  for (;;) yield piece;
}

interface Outcome {
  /** Body bytes handed to the socket before the server closed it (or all of OFFERED). */
  sent: number;
  status: number;
  body: string;
  connection: string | undefined;
}

/** Streams the request over a real socket until the server closes it or OFFERED bytes are sent. */
function stream(headers: string, pieces: Generator<Buffer>): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let sent = 0;
    let closed = false;
    let response = '';
    socket.on('data', (d) => (response += d.toString('latin1')));
    socket.on('error', () => (closed = true));
    socket.on('close', () => {
      closed = true;
      const [statusLine = '', ...rest] = response.split('\r\n');
      const blank = rest.indexOf('');
      const fields = Object.fromEntries(
        rest.slice(0, blank).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({
        sent,
        status: Number(statusLine.split(' ')[1]),
        body: rest.slice(blank + 1).join('\r\n'),
        connection: fields.connection,
      });
    });
    socket.on('connect', async () => {
      socket.write(headers);
      for (const piece of pieces) {
        if (closed || sent >= OFFERED) break;
        sent += piece.length;
        if (!socket.write(piece)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              socket.off('drain', done);
              socket.off('close', done);
              resolve();
            };
            socket.on('drain', done);
            socket.on('close', done);
          });
        }
      }
      if (!closed) socket.end(); // all offered: a server that drained it all answers, then closes
    });
  });
}

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
