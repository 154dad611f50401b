import { blobToDataUrl } from './data-url';

describe('blobToDataUrl', () => {
  it('encodes the bytes in base64 with the given type, also past one 32 KB slice', async () => {
    expect(await blobToDataUrl(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }))).toBe(
      'data:image/png;base64,iVBORw==',
    );
    const big = new Uint8Array(70_000).map((_, i) => i % 256);
    const url = await blobToDataUrl(new Blob([big]), 'image/webp');
    expect(url.startsWith('data:image/webp;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1]!, 'base64').equals(Buffer.from(big))).toBe(true);
  });
});
