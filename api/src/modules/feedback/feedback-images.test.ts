import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';

// Issue 21 item 3: what an uploaded image carries besides pixels never comes back.

const colour = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } });

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A real PNG with a tEXt chunk holding a script, before IEND. */
async function pngWithScript(): Promise<Buffer> {
  const plain = await colour(4, 3).png().toBuffer();
  const iend = plain.length - 12;
  const text = pngChunk('tEXt', Buffer.from('Comment\0<script>alert(document.cookie)</script>', 'latin1'));
  return Buffer.concat([plain.subarray(0, iend), text, plain.subarray(iend)]);
}

/** A JPEG whose EXIF says where it was taken (GPS IFD) and by which camera (serial). */
async function jpegWithGps(): Promise<Buffer> {
  const plain = await colour(8, 8).jpeg().toBuffer();
  // TIFF, little-endian: IFD0 = { BodySerialNumber (ASCII, inline offset), GPSInfo → GPS IFD }.
  const tiff = Buffer.alloc(128);
  tiff.write('II', 0, 'ascii');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(2, 8); // two entries
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  entry(10, 0x8825, 4, 1, 40); // GPSInfo IFD at 40
  entry(22, 0x010e, 2, 12, 100); // ImageDescription at 100
  tiff.writeUInt32LE(0, 34); // no next IFD
  tiff.writeUInt16LE(2, 40); // GPS IFD: two entries
  tiff.writeUInt16LE(0x0001, 42); // GPSLatitudeRef 'N'
  tiff.writeUInt16LE(2, 44);
  tiff.writeUInt32LE(2, 46);
  tiff.write('N\0', 50, 'ascii');
  entry(54, 0x0002, 5, 3, 72); // GPSLatitude, 3 rationals at 72
  tiff.writeUInt32LE(0, 66);
  [48, 1, 51, 1, 24, 1].forEach((v, i) => tiff.writeUInt32LE(v, 72 + i * 4));
  tiff.write('GPSSECRET42\0', 100, 'ascii');
  const app1Body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const app1 = Buffer.concat([
    Buffer.from([0xff, 0xe1, (app1Body.length + 2) >> 8, (app1Body.length + 2) & 0xff]),
    app1Body,
  ]);
  return Buffer.concat([plain.subarray(0, 2), app1, plain.subarray(2)]);
}

/** A GIF that is also an HTML page: a comment extension and bytes after the trailer hold the markup. */
async function gifHtmlPolyglot(): Promise<Buffer> {
  const plain = await colour(5, 5).gif().toBuffer();
  const html = Buffer.from('<html><body><script>alert(1)</script></body></html>', 'latin1');
  const comment = Buffer.concat([Buffer.from([0x21, 0xfe, html.length]), html, Buffer.from([0])]);
  // After the header and logical screen descriptor (and its global colour table, if any).
  const packed = plain[10]!;
  const start = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  return Buffer.concat([plain.subarray(0, start), comment, plain.subarray(start), html]);
}

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };
function multipart(parts: Part[]) {
  const boundary = `----qc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'value' in p
        ? `content-disposition: form-data; name="${p.name}"\r\n\r\n`
        : `content-disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\ncontent-type: ${p.type}\r\n\r\n`;
    chunks.push(
      Buffer.from(`--${boundary}\r\n${head}`),
      'value' in p ? Buffer.from(p.value) : p.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const valid: Part[] = [
  { name: 'type', value: 'bug' },
  { name: 'message', value: 'The screenshot shows the problem.' },
];
const file = (name: string, data: Buffer, type: string): Part => ({ name, filename: 'shot', type, data });

let t: TestApp;
let user: { access: string };
let admin: { access: string };
beforeAll(async () => {
  t = await createTestApp({ QC_FEEDBACK_RATE_MAX: '1000' });
  await t.createUser({ email: 'reporter@example.com' });
  await t.createUser({ email: 'boss@example.com', role: 'admin' });
  user = await t.login('reporter@example.com');
  admin = await t.login('boss@example.com');
});
afterAll(() => t.close());

const send = (parts: Part[]) => {
  const { payload, headers } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/feedback/',
    payload,
    headers: { ...headers, ...bearer(user.access) },
  });
};
/** The images of the newest feedback, as the admin downloads them. */
async function downloaded(): Promise<Buffer[]> {
  const item = (await t.app.inject({ method: 'GET', url: '/api/feedback/', headers: bearer(admin.access) })).json()
    .results[0];
  const out: Buffer[] = [];
  for (const image of item.images as { url: string }[]) {
    out.push((await t.app.inject({ method: 'GET', url: image.url, headers: bearer(admin.access) })).rawPayload);
  }
  return out;
}

test('the fixtures carry what they claim: a script text chunk, EXIF GPS, HTML in a GIF', async () => {
  expect((await pngWithScript()).includes('<script>')).toBe(true);
  expect((await sharp(await pngWithScript()).metadata()).format).toBe('png'); // still a valid PNG
  const exif = (await sharp(await jpegWithGps()).metadata()).exif;
  expect(exif?.includes('GPSSECRET42')).toBe(true);
  expect((await sharp(await gifHtmlPolyglot()).metadata()).format).toBe('gif');
  expect((await gifHtmlPolyglot()).includes('<script>')).toBe(true);
});

test('each image comes back re-encoded: same pixels, no text chunk, no EXIF, no HTML', async () => {
  const originals = [await pngWithScript(), await jpegWithGps(), await gifHtmlPolyglot()];
  const res = await send([
    ...valid,
    file('image0', originals[0]!, 'image/png'),
    file('image1', originals[1]!, 'image/jpeg'),
    file('image2', originals[2]!, 'image/gif'),
  ]);
  expect(res.statusCode).toBe(201);
  const [png, jpeg, gif] = await downloaded();
  for (const [n, out] of [png!, jpeg!, gif!].entries()) {
    expect(out.equals(originals[n]!)).toBe(false);
    expect(out.includes('<script')).toBe(false);
    expect(out.includes('GPSSECRET42')).toBe(false);
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ width: (await sharp(originals[n]!).metadata()).width });
    expect(meta.exif).toBeUndefined();
    expect(meta.comments).toBeUndefined();
  }
  expect(['tEXt', 'iTXt', 'zTXt'].some((chunk) => png!.includes(chunk))).toBe(false);
  expect(jpeg!.includes('Exif')).toBe(false);
  expect(gif!.includes(Buffer.from([0x21, 0xfe]))).toBe(false); // no comment extension
  // Lossless formats keep their pixels exactly.
  const raw = async (b: Buffer) => (await sharp(b).raw().toBuffer()).toString('hex');
  expect(await raw(png!)).toBe(await raw(originals[0]!));
  // Re-encoded once, at the upload: served as stored, not decoded again at each view of the page.
  const newest = await t.db
    .selectFrom('feedback')
    .select('id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const last = await t.db
    .selectFrom('feedback_images')
    .select(['data', 'reencoded'])
    .where('feedback_id', '=', newest.id)
    .orderBy('position')
    .execute();
  expect(last.map((r) => Number(r.reencoded))).toEqual([1, 1, 1]);
  expect([png!, jpeg!, gif!].map((out, n) => out.equals(Buffer.from(last[n]!.data)))).toEqual([true, true, true]);
});

test('a WebP is re-encoded as WebP', async () => {
  const webp = await colour(6, 6)
    .webp()
    .withMetadata({ exif: { IFD0: { Copyright: 'GPSSECRET42' } } })
    .toBuffer();
  expect(webp.includes('GPSSECRET42')).toBe(true);
  expect((await send([...valid, file('image0', webp, 'image/webp')])).statusCode).toBe(201);
  const [out] = await downloaded();
  expect((await sharp(out!).metadata()).format).toBe('webp');
  expect(out!.includes('GPSSECRET42')).toBe(false);
});

test.each([
  ['a GIF sent as text/html', 'gif', 'text/html'],
  ['a JPEG sent as image/png', 'jpeg', 'image/png'],
  ['a PNG sent as image/gif', 'png', 'image/gif'],
])('%s → 415 naming the field; nothing stored', async (_name, format, declared) => {
  const before = (await t.app.inject({ method: 'GET', url: '/api/feedback/', headers: bearer(admin.access) })).json()
    .results.length;
  const data = await colour(2, 2)
    .toFormat(format as 'gif')
    .toBuffer();
  const res = await send([
    ...valid,
    file('image0', await colour(2, 2).png().toBuffer(), 'image/png'),
    file('image1', data, declared),
  ]);
  expect(res.statusCode).toBe(415);
  expect(res.json()).toEqual({
    detail: expect.any(String),
    code: 'unsupported_media_type',
    errors: { image1: expect.stringContaining(declared) },
  });
  const after = (await t.app.inject({ method: 'GET', url: '/api/feedback/', headers: bearer(admin.access) })).json()
    .results.length;
  expect(after).toBe(before);
});

test('image/jpg and application/octet-stream are accepted for a JPEG', async () => {
  const data = await colour(2, 2).jpeg().toBuffer();
  for (const declared of ['image/jpg', 'application/octet-stream']) {
    expect((await send([...valid, file('image0', data, declared)])).statusCode).toBe(201);
  }
});

test('a file with an image signature that does not decode → 400 "only image files"', async () => {
  const plain = await colour(4, 4).png().toBuffer();
  const broken = Buffer.concat([plain.subarray(0, 40), Buffer.alloc(30, 0x55)]);
  const res = await send([...valid, file('image0', broken, 'image/png')]);
  expect(res.statusCode).toBe(400);
  expect(res.json().errors).toEqual({ image0: 'Please upload only image files' });
});

describe('images stored before uploads were re-encoded', () => {
  /** Stores the bytes as an old release did (as sent, under the sniffed type); their download url. */
  async function storedAsSent(images: { mime: string; data: Buffer }[]): Promise<string[]> {
    const id = `legacy-${Math.random().toString(16).slice(2)}`;
    await t.db
      .insertInto('feedback')
      .values({ id, user_id: null, type: 'bug', message: 'Sent before re-encoding.', email: null, created_at: 1 })
      .execute();
    const rows = images.map(({ mime, data }, position) => ({
      id: `${id}-${position}`,
      feedback_id: id,
      position,
      mime,
      size: data.length,
      data,
      reencoded: 0, // as stored before 0024
    }));
    await t.db.insertInto('feedback_images').values(rows).execute();
    return rows.map((r) => `/api/feedback/${id}/images/${r.id}/`);
  }
  const download = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(admin.access) });

  test('are re-encoded when downloaded: right type, no text chunk, no EXIF, no HTML', async () => {
    const originals = [await pngWithScript(), await jpegWithGps(), await gifHtmlPolyglot()];
    const mimes = ['image/png', 'image/jpeg', 'image/gif'];
    // What each format must not carry any more: PNG text chunks, an EXIF block, a GIF comment extension.
    const leftovers: (string | Buffer)[][] = [['tEXt', 'iTXt', 'zTXt'], ['Exif'], [Buffer.from([0x21, 0xfe])]];
    const urls = await storedAsSent(originals.map((data, n) => ({ mime: mimes[n]!, data })));
    for (const [n, url] of urls.entries()) {
      const res = await download(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(mimes[n]);
      const out = res.rawPayload;
      expect(out.equals(originals[n]!)).toBe(false);
      expect(out.includes('<script')).toBe(false);
      expect(out.includes('<html')).toBe(false);
      expect(out.includes('GPSSECRET42')).toBe(false);
      const meta = await sharp(out).metadata();
      expect(`image/${meta.format}`).toBe(mimes[n]);
      expect(meta.width).toBe((await sharp(originals[n]!).metadata()).width);
      expect(meta.exif).toBeUndefined();
      expect(meta.comments).toBeUndefined();
      expect(leftovers[n]!.filter((marker) => out.includes(marker))).toEqual([]);
      // Stored so from then on, as an upload is now: the next download is these bytes.
      const row = await t.db
        .selectFrom('feedback_images')
        .select(['data', 'size', 'reencoded'])
        .where('id', '=', url.split('/').at(-2)!)
        .executeTakeFirstOrThrow();
      expect({ ...row, data: Buffer.from(row.data).equals(out) }).toEqual({
        data: true,
        size: out.length,
        reencoded: 1,
      });
      expect((await download(url)).rawPayload.equals(out)).toBe(true);
    }
  });

  test('bytes that are not a readable image of the stored type → 415, never the bytes', async () => {
    const png = await colour(4, 4).png().toBuffer();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const urls = await storedAsSent([
      { mime: 'image/png', data: html },
      // A PNG's signature, then garbage: sniffs as PNG, does not decode.
      { mime: 'image/png', data: Buffer.concat([png.subarray(0, 40), Buffer.from('<script>alert(1)</script>')]) },
      // A GIF stored as a PNG: not served under a type its bytes are not.
      { mime: 'image/png', data: await gifHtmlPolyglot() },
    ]);
    for (const url of urls) {
      const res = await download(url);
      expect(res.statusCode).toBe(415);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ code: 'unsupported_media_type', detail: expect.stringContaining('image') });
      expect(res.body).not.toContain('<script');
    }
  });
});
