import type { AddressInfo } from 'node:net';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { endlessPart as endless, MB, multipartHead, SLACK, streamUpload } from '../../test/oversize-upload';
import { FEEDBACK_MAX_BODY_BYTES } from './feedback.service';

// Issue 21 item 4: an oversize upload is answered and the connection closed at the limit, not read
// to its end; and a daily quota per user.

let t: TestApp;
let port: number;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ QC_FEEDBACK_RATE_MAX: '1000' });
  await t.createUser({ email: 'big@example.com' });
  token = (await t.login('big@example.com')).access;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const BOUNDARY = 'qcLimitBoundary';
const head = (headers: Record<string, string>) => multipartHead('/api/feedback/', BOUNDARY, token, headers);
const endlessPart = (disposition: string, chunked: boolean) =>
  endless(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="type"\r\n\r\nbug\r\n` +
      `--${BOUNDARY}\r\ncontent-disposition: form-data; ${disposition}\r\n\r\n`,
    chunked,
  );
const stream = (headers: string, pieces: Generator<Buffer>) => streamUpload(port, headers, pieces);

test('a declared Content-Length over any valid form → 413 at once, nothing read', async () => {
  const out = await stream(
    head({ 'content-length': String(500 * MB) }),
    endlessPart('name="image0"; filename="a.png"\r\ncontent-type: image/png', false),
  );
  expect(out.status).toBe(413);
  expect(JSON.parse(out.body.replace(/^[0-9a-f]+\r\n/, '').split('\r\n')[0]!)).toMatchObject({
    code: 'payload_too_large',
  });
  expect(out.connection).toBe('close');
  expect(out.sent).toBeLessThan(SLACK);
});

test('a chunked file over 5 MB → 413 file_too_large, and the connection closes near the limit', async () => {
  const out = await stream(
    head({ 'transfer-encoding': 'chunked' }),
    endlessPart('name="image0"; filename="a.png"\r\ncontent-type: image/png', true),
  );
  expect(out.status).toBe(413);
  expect(out.body).toContain('file_too_large');
  expect(out.connection).toBe('close');
  expect(out.sent).toBeLessThan(5 * MB + SLACK);
});

test('a chunked text field without end → 413 once the form passes its largest size, not read to the end', async () => {
  const out = await stream(head({ 'transfer-encoding': 'chunked' }), endlessPart('name="message"', true));
  expect(out.status).toBe(413);
  expect(out.body).toContain('payload_too_large');
  expect(out.connection).toBe('close');
  expect(out.sent).toBeLessThan(FEEDBACK_MAX_BODY_BYTES + SLACK);
});

test('the server still answers after those (nothing left hanging)', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
});

describe('daily quota', () => {
  let q: TestApp;
  beforeAll(async () => {
    q = await createTestApp({ QC_FEEDBACK_RATE_MAX: '1000', QC_FEEDBACK_DAILY_MAX: '2' });
  });
  afterAll(() => q.close());

  const form = (message: string) => {
    const payload =
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="type"\r\n\r\nbug\r\n` +
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="message"\r\n\r\n${message}\r\n--${BOUNDARY}--\r\n`;
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
  };
  const send = (access: string, message = 'Something went wrong today.') =>
    q.app.inject({
      method: 'POST',
      url: '/api/feedback/',
      ...form(message),
      headers: { ...form(message).headers, ...bearer(access) },
    });

  test('QC_FEEDBACK_DAILY_MAX stored per user in 24 h; then 429 with Retry-After until the oldest ages out', async () => {
    const u = await q.createUser({ email: 'daily@example.com' });
    const other = await q.createUser({ email: 'other@example.com' });
    const access = (await q.login('daily@example.com')).access;
    // A refused form is not feedback: it does not use the quota.
    expect((await send(access, 'short')).statusCode).toBe(400);
    // One sent 23 hours ago still counts; it leaves the 24 hours in an hour.
    await q.db
      .insertInto('feedback')
      .values({
        id: 'old-feedback-1',
        user_id: u.id,
        type: 'bug',
        message: 'Sent yesterday, still within 24 hours.',
        email: null,
        created_at: Date.now() - 23 * 3600 * 1000,
      })
      .execute();
    expect((await send(access)).statusCode).toBe(201);
    const refused = await send(access);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited', detail: expect.stringContaining('2') });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another user has their own quota.
    expect((await send((await q.login(other.email)).access)).statusCode).toBe(201);
  });

  test('parallel submissions at the quota’s edge: exactly the room left is stored, the rest 429', async () => {
    const u = await q.createUser({ email: 'burst@example.com' });
    const access = (await q.login('burst@example.com')).access;
    expect((await send(access)).statusCode).toBe(201); // one place left of QC_FEEDBACK_DAILY_MAX=2
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => send(access, `Parallel feedback ${i}`)));
    const statuses = all.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...Array<number>(7).fill(429)]);
    for (const refused of all.filter((r) => r.statusCode === 429)) {
      expect(refused.json()).toMatchObject({ code: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const stored = await q.db.selectFrom('feedback').select('id').where('user_id', '=', u.id).execute();
    expect(stored).toHaveLength(2);
  });
});
