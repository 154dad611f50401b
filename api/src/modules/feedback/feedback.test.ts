import { deflateSync } from 'node:zlib';
import { FEEDBACK_MESSAGES, FeedbackList } from '@qc/contracts';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';

// ---- tiny valid images, made here ------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A 1×1 RGBA PNG of the given colour (or a tiny file whose header declares width × height). */
function png(rgba = [255, 0, 0, 255], width = 1, height = 1): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, ...rgba]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
/** A 1×1 grey baseline JPEG: one block, DC difference 0, end of block. */
function jpeg(): Buffer {
  const seg = (marker: number, body: number[]) => [
    0xff,
    marker,
    (body.length + 2) >> 8,
    (body.length + 2) & 0xff,
    ...body,
  ];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...seg(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // APP0 JFIF
    ...seg(0xdb, [0, ...Array<number>(64).fill(1)]), // DQT 0
    ...seg(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0 1×1, one component
    ...seg(0xc4, [0x00, 1, ...Array<number>(15).fill(0), 0]), // DHT DC0: one 1-bit code → category 0
    ...seg(0xc4, [0x10, 1, ...Array<number>(15).fill(0), 0]), // DHT AC0: one 1-bit code → EOB
    ...seg(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // "0" (DC 0) "0" (EOB), padded with 1s
    0xff,
    0xd9, // EOI
  ]);
}
/** The classic 1×1 transparent GIF. */
const gif = () => Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** Decoded pixels (RGBA) and size: what must survive a re-encoding. */
async function pixels(data: Buffer) {
  const { data: raw, info } = await sharp(data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: [...raw] };
}

// ---- multipart ---------------------------------------------------------------------------------

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

function multipart(parts: Part[]) {
  const boundary = `----qc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'value' in p
        ? `content-disposition: form-data; name="${p.name}"\r\n\r\n`
        : `content-disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\ncontent-type: ${p.type}\r\n\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}`), 'value' in p ? Buffer.from(p.value) : p.data);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const text = (name: string, value: string): Part => ({ name, value });
const file = (name: string, data: Buffer, filename = 'shot.png', type = 'image/png'): Part => ({
  name,
  filename,
  type,
  data,
});
const valid = [text('type', 'bug'), text('message', 'The release button does nothing.')];

// ---- app ---------------------------------------------------------------------------------------

let t: TestApp;
let user: { access: string };
let admin: { access: string };
let userId: string;
beforeAll(async () => {
  t = await createTestApp({ QC_FEEDBACK_RATE_MAX: '1000' });
  userId = (await t.createUser({ email: 'reporter@example.com', username: 'reporter' })).id;
  await t.createUser({ email: 'boss@example.com', role: 'admin' });
  user = await t.login('reporter@example.com');
  admin = await t.login('boss@example.com');
});
afterAll(() => t.close());

const send = (parts: Part[], access = user.access, app = t) => {
  const { payload, headers } = multipart(parts);
  return app.app.inject({ method: 'POST', url: '/api/feedback/', payload, headers: { ...headers, ...bearer(access) } });
};
const list = (query = '', access = admin.access) =>
  t.app.inject({ method: 'GET', url: `/api/feedback/${query}`, headers: bearer(access) });

test('the generated images are what they claim (checked by the same sniffer)', async () => {
  expect((await fileTypeFromBuffer(png()))?.mime).toBe('image/png');
  expect((await fileTypeFromBuffer(jpeg()))?.mime).toBe('image/jpeg');
  expect((await fileTypeFromBuffer(gif()))?.mime).toBe('image/gif');
});

describe('POST /api/feedback/', () => {
  test('201 with three images; stored with the sniffed types; the admin lists it and downloads them safely', async () => {
    const images = [png(), jpeg(), gif()];
    const res = await send([
      text('type', 'suggestion'),
      text('message', '  Please add a dark mode to the quarantine list.  '),
      text('email', 'Reporter@Example.com'),
      // The content decides; a generic declared type is fine, a contradicting one is not (below).
      file('image0', images[0]!, 'a.png', 'image/png'),
      file('image1', images[1]!, 'b.jpg', 'application/octet-stream'),
      file('image2', images[2]!, 'c.bin', 'image/gif'),
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'Thank you for your feedback!' });

    const page = await list();
    expect(page.statusCode).toBe(200);
    const body = FeedbackList.parse(page.json());
    const item = body.results.find((r) => r.type === 'suggestion')!;
    expect(item).toMatchObject({
      type: 'suggestion',
      message: 'Please add a dark mode to the quarantine list.',
      email: 'reporter@example.com',
      user: { id: userId, email: 'reporter@example.com', username: 'reporter' },
    });
    expect(new Date(item.created_at).toISOString()).toBe(item.created_at);
    expect(item.images.map((i) => i.mime)).toEqual(['image/png', 'image/jpeg', 'image/gif']);

    for (const [n, image] of item.images.entries()) {
      const dl = await t.app.inject({ method: 'GET', url: image.url, headers: bearer(admin.access) });
      expect(dl.statusCode).toBe(200);
      // Re-encoded (see "metadata" below): same format and size, same pixels, the stored size.
      expect(dl.rawPayload.length).toBe(image.size);
      expect((await fileTypeFromBuffer(dl.rawPayload))?.mime).toBe(image.mime);
      expect(await pixels(dl.rawPayload)).toEqual(await pixels(images[n]!));
      expect(dl.headers['content-type']).toBe(image.mime);
      expect(dl.headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+"; filename\*=UTF-8''[\w.-]+$/);
      expect(dl.headers['x-content-type-options']).toBe('nosniff');
      expect(dl.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    }
  });

  test('without images, without e-mail: 201, email null', async () => {
    const res = await send([text('type', 'question'), text('message', 'How do I release mail?'), text('email', '')]);
    expect(res.statusCode).toBe(201);
    const item = (await list()).json().results.find((r: { type: string }) => r.type === 'question');
    expect(item).toMatchObject({ email: null, images: [] });
  });

  test('an empty file input (no file chosen) is no image', async () => {
    const res = await send([...valid, file('image0', Buffer.alloc(0), '', 'application/octet-stream')]);
    expect(res.statusCode).toBe(201);
  });

  test.each([
    ['type missing', [text('message', 'A long enough message.')], { type: 'Please select a feedback type' }],
    [
      'type unknown',
      [text('type', 'rant'), text('message', 'A long enough message.')],
      { type: 'Please select a feedback type' },
    ],
    ['message missing', [text('type', 'bug')], { message: 'Please enter a message' }],
    ['message blank', [text('type', 'bug'), text('message', '    ')], { message: 'Please enter a message' }],
    [
      'message short',
      [text('type', 'bug'), text('message', 'too short')],
      { message: 'Message must be at least 10 characters long' },
    ],
    [
      'message long',
      [text('type', 'bug'), text('message', 'x'.repeat(5001))],
      { message: FEEDBACK_MESSAGES.messageTooLong },
    ],
    ['e-mail invalid', [...valid, text('email', 'not-an-email')], { email: 'Invalid email format' }],
    [
      'all at once',
      [text('email', 'x@')],
      { type: 'Please select a feedback type', message: 'Please enter a message', email: 'Invalid email format' },
    ],
  ])('400 per field: %s', async (_name, parts, errors) => {
    const res = await send(parts as Part[]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'validation_error', errors });
  });

  test('a 5000-character message and a 10-character one are fine', async () => {
    expect((await send([text('type', 'other'), text('message', 'y'.repeat(5000))])).statusCode).toBe(201);
    expect((await send([text('type', 'other'), text('message', '1234567890')])).statusCode).toBe(201);
  });

  test.each([
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'x.svg',
      'image/svg+xml',
    ],
    ['a text file renamed .png', Buffer.from('just some text, honestly\n'), 'notes.png', 'image/png'],
    ['HTML declared image/png', Buffer.from('<!doctype html><script>alert(1)</script>'), 'x.png', 'image/png'],
    ['a PDF', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 'x.png', 'image/png'],
    ['only a PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'x.png', 'image/png'],
  ])('%s is refused: 400 errors.image1 "Please upload only image files"', async (_name, data, filename, type) => {
    const res = await send([...valid, file('image0', png()), file('image1', data, filename, type)]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      errors: { image1: 'Please upload only image files' },
    });
    expect(res.json().errors).not.toHaveProperty('image0');
  });

  test('an image declaring more than 40 megapixels is refused, however small its file (a decompression bomb)', async () => {
    const bomb = png([0, 0, 0, 255], 20_000, 20_000);
    expect(bomb.length).toBeLessThan(100);
    const res = await send([...valid, file('image0', png()), file('image1', bomb)]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ image1: 'Each image must be at most 40 megapixels' });
  });

  test('more than 3 files → 400 (image3, or a 4th file under any name)', async () => {
    const four = [file('image0', png()), file('image1', png()), file('image2', png())];
    for (const extra of [file('image3', png()), file('image0', png())]) {
      const res = await send([...valid, ...four, extra]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error', errors: { images: expect.any(String) } });
    }
    const named = await send([...valid, file('image7', png())]);
    expect(named.statusCode).toBe(400);
    expect(named.json().errors).toHaveProperty('images');
  });

  test('a file over 5 MB → 413 file_too_large; exactly 5 MB is fine', async () => {
    const big = Buffer.concat([png(), Buffer.alloc(5 * 1024 * 1024 + 1 - png().length)]);
    const res = await send([...valid, file('image0', big)]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'file_too_large' });
    const max = Buffer.concat([png(), Buffer.alloc(5 * 1024 * 1024 - png().length)]);
    expect((await send([...valid, file('image0', max)])).statusCode).toBe(201);
  });

  test('a body that is not multipart → 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/feedback/',
      headers: bearer(user.access),
      payload: { type: 'bug', message: 'Sent as JSON, not a form.' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  test('a multipart body with no boundary, or cut short → 400 bad_request, not a 500', async () => {
    for (const [type, body] of [
      ['multipart/form-data', 'garbage'],
      ['multipart/form-data; boundary=XX', '--XX\r\nContent-Disposition: form-data; name="type"\r\n\r\nbu'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/feedback/',
        headers: { ...bearer(user.access), 'content-type': type! },
        payload: body,
      });
      expect([type, res.statusCode, res.json().code]).toEqual([type, 400, 'bad_request']);
    }
  });

  test('anonymous → 401, before anything is read', async () => {
    const { payload, headers } = multipart(valid);
    const res = await t.app.inject({ method: 'POST', url: '/api/feedback/', payload, headers });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/feedback/ and images (admin only)', () => {
  test('non-admins → 403 (domain admin included); anonymous → 401', async () => {
    await t.createUser({ email: 'da@corp.example', role: 'domain_admin', domain: 'corp.example' });
    const da = await t.login('da@corp.example');
    for (const access of [user.access, da.access]) {
      const res = await list('', access);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/feedback/' })).statusCode).toBe(401);

    await send([...valid, file('image0', png())]);
    const item = (await list()).json().results[0];
    const url = item.images[0].url;
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(user.access) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    // An image id under another feedback id, or an unknown one → 404.
    const other = (await list()).json().results.find((r: { id: string }) => r.id !== item.id);
    const wrong = `/api/feedback/${other.id}/images/${item.images[0].id}/`;
    expect((await t.app.inject({ method: 'GET', url: wrong, headers: bearer(admin.access) })).statusCode).toBe(404);
  });

  test('keyset pagination: newest first, every row once, then next_cursor null; a bad cursor → 400', async () => {
    for (let i = 0; i < 5; i++) await send([text('type', 'other'), text('message', `Paged feedback number ${i}`)]);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?page_size=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = FeedbackList.parse(res.json());
      expect(body.results.length).toBeLessThanOrEqual(2);
      seen.push(...body.results.map((r) => r.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    const all = (await list('?page_size=200')).json();
    expect(all.next_cursor).toBeNull();
    expect(seen).toEqual(all.results.map((r: { id: string }) => r.id));
    expect(new Set(seen).size).toBe(seen.length);
    const dates = all.results.map((r: { created_at: string }) => r.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);

    expect((await list('?cursor=garbage')).statusCode).toBe(400);
    expect((await list('?page_size=500')).statusCode).toBe(400);
  });
});

describe('rate limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ QC_FEEDBACK_RATE_MAX: '2', QC_FEEDBACK_RATE_WINDOW: '3600' });
  });
  afterAll(() => small.close());

  test('per user: beyond QC_FEEDBACK_RATE_MAX → 429; another user is unaffected', async () => {
    await small.createUser({ email: 'chatty@example.com' });
    await small.createUser({ email: 'quiet@example.com' });
    const chatty = await small.login('chatty@example.com');
    const quiet = await small.login('quiet@example.com');
    expect((await send(valid, chatty.access, small)).statusCode).toBe(201);
    expect((await send(valid, chatty.access, small)).statusCode).toBe(201);
    const limited = await send(valid, chatty.access, small);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await send(valid, quiet.access, small)).statusCode).toBe(201);
  });
});
