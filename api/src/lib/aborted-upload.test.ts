// A client that goes away in the middle of an upload is not an error of ours (issue 21, item 12):
// node reports it as "aborted" with code ECONNRESET, which the error handler used to take for a
// database outage and log at error level with a stack. Real app on a real port, real sockets.
import net from 'node:net';
import { createTestApp, type TestApp } from '../test/helpers';
import { ingestForm, meta, mime } from '../test/quarantine';

const TOKEN = 'aborted-upload-token-0123456789abcdef';
const ERROR = 50;
let t: TestApp;
let access: string;
const lines: { level: number; msg: string; reqId?: string; err?: { stack?: string } }[] = [];

beforeAll(async () => {
  t = await createTestApp(
    { QC_LOG_LEVEL: 'info', QC_INGEST_TOKEN: TOKEN },
    { logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
  );
  await t.createUser({ email: 'ann@a.example' });
  access = (await t.login('ann@a.example')).access;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

/** Sends the head and half the body of a POST, then closes the socket; the log lines of that request. */
async function abortMidBody(url: string, headers: Record<string, string>, body: Buffer) {
  const from = lines.length;
  const { port } = t.app.server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const head = Object.entries({ host: 'x', ...headers, 'content-length': String(body.length) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(`POST ${url} HTTP/1.1\r\n${head}\r\n`);
  socket.write(body.subarray(0, body.length >> 1));
  // The server has the head and part of the body (the handler is reading it) before the client goes.
  const t0 = Date.now();
  while (!lines.slice(from).some((l) => l.msg === 'incoming request') && Date.now() - t0 < 5000)
    await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200));
  socket.destroy();
  const reqId = lines.slice(from).find((l) => l.msg === 'incoming request')?.reqId;
  // Wait for the handler's line about this request (the abort reaches it when the socket closes).
  const deadline = Date.now() + 5000;
  const ofRequest = () => lines.slice(from).filter((l) => l.reqId === reqId && l.msg !== 'incoming request');
  while (!ofRequest().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200)); // a late second line would show too
  return ofRequest();
}

test.each([
  [
    'an ingest (the Haraka plugin)',
    () => {
      const form = ingestForm(meta(), mime({ body: 'x'.repeat(400_000) }));
      return {
        url: '/api/quarantine/ingest/',
        headers: { authorization: `Bearer ${TOKEN}`, ...form.headers },
        body: form.payload,
      };
    },
  ],
  [
    'a feedback form with an image',
    () => {
      const boundary = '----qcAbortedFeedback';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nbug\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nThe page does not load at all.\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="image0"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        Buffer.alloc(400_000, 1),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return {
        url: '/api/feedback/',
        headers: { authorization: `Bearer ${access}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      };
    },
  ],
])('%s aborted mid-body: one info line without a stack, nothing at error level', async (_what, build) => {
  const { url, headers, body } = build();
  const logged = await abortMidBody(url, headers, body);
  expect(logged.filter((l) => l.level >= ERROR)).toEqual([]);
  expect(logged.some((l) => /database/.test(l.msg))).toBe(false);
  const aborted = logged.filter((l) => l.msg === 'request aborted by the client');
  expect(aborted).toHaveLength(1);
  expect(aborted[0]!.level).toBeLessThan(ERROR);
  expect(aborted[0]!.err?.stack).toBeUndefined();
});
