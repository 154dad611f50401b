import { isTimeoutError } from 'ky';
import { fetchBlob, sendFeedback } from './feedback';

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('feedback calls', () => {
  it('POST /api/feedback/ as multipart: type, message, optional email, image0..image2 (never more)', async () => {
    let seen: Request | null = null;
    let form: FormData | null = null;
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      seen = input as Request;
      form = await seen.clone().formData();
      return new Response(JSON.stringify({ message: 'Thank you for your feedback!' }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    const { Blob: NodeBlob } = jest.requireActual<typeof import('node:buffer')>('node:buffer');
    const img = (n: number) => new NodeBlob([`img${n}`], { type: 'image/png' }) as unknown as Blob;
    await expect(
      sendFeedback({ type: 'question', message: 'How do I release?', images: [img(0), img(1), img(2), img(3)] }),
    ).resolves.toEqual({ message: 'Thank you for your feedback!' });
    const req = seen as unknown as Request;
    expect(req.method).toBe('POST');
    expect(new URL(req.url).pathname).toBe('/api/feedback/');
    expect(req.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const sent = form as unknown as FormData;
    expect(sent.get('type')).toBe('question');
    expect(sent.get('message')).toBe('How do I release?');
    expect(sent.has('email')).toBe(false);
    expect(await (sent.get('image2') as Blob).text()).toBe('img2');
    expect(sent.has('image3')).toBe(false);
  });

  it('gives up after 30 s (spec §7, §9): a TimeoutError, read as "no answer"', async () => {
    jest.useFakeTimers();
    jest.spyOn(globalThis, 'fetch').mockImplementation(
      (input) =>
        new Promise((_resolve, reject) => {
          const { signal } = input as Request;
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    let outcome: unknown = 'pending';
    const call = sendFeedback({ type: 'bug', message: 'It hangs forever.' }).then(
      () => (outcome = 'resolved'),
      (e: unknown) => (outcome = e),
    );
    await jest.advanceTimersByTimeAsync(29_900);
    expect(outcome).toBe('pending');
    await jest.advanceTimersByTimeAsync(200);
    await call;
    expect(isTimeoutError(outcome)).toBe(true);
  });

  it('fetchBlob reads an API path with the ky instance (Bearer header, no token in the URL)', async () => {
    localStorage.setItem('accessToken', 'tok');
    let seen: Request | null = null;
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      seen = input as Request;
      return new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'Content-Type': 'image/png' } });
    });
    const blob = await fetchBlob('/api/feedback/f1/images/i1/');
    expect(blob.size).toBe(3);
    const req = seen as unknown as Request;
    expect(req.url).toBe('http://localhost/api/feedback/f1/images/i1/');
    expect(req.headers.get('Authorization')).toBe('Bearer tok');
  });
});
