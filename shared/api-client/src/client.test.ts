import ky, { HTTPError, TimeoutError } from 'ky';
import { errorMessageKey, errorMessageValues, isHTTPError, readApiError } from './client';

function httpError(status: number, data?: unknown, headers: Record<string, string> = {}) {
  const request = new Request('http://localhost/api/x/');
  const error = new HTTPError(new Response(null, { status, headers }), request, {} as never);
  (error as { data: unknown }).data = data;
  return error;
}

/** Renames ky's error classes as a minifier does (null: their own names back). */
function renameKyClasses(to: string | null) {
  for (const [cls, name] of [
    [HTTPError, 'HTTPError'],
    [TimeoutError, 'TimeoutError'],
  ] as const) {
    Object.defineProperty(cls, 'name', { value: to ?? name, configurable: true });
  }
}

describe('error helpers', () => {
  it('reads the API error body {detail, code, errors}', () => {
    expect(
      readApiError(httpError(400, { detail: 'Bad', code: 'validation_error', errors: { email: 'Invalid' } })),
    ).toEqual({
      status: 400,
      code: 'validation_error',
      detail: 'Bad',
      errors: { email: 'Invalid' },
    });
  });

  it('a 429 with Retry-After says the wait: seconds up to two minutes, else minutes', () => {
    const limited = (retryAfter: string) => httpError(429, { code: 'rate_limited' }, { 'Retry-After': retryAfter });
    expect(readApiError(limited('42')).retryAfter).toBe(42);
    expect(errorMessageKey(limited('42'))).toBe('errors.rate_limited_seconds');
    expect(errorMessageValues(limited('42'))).toEqual({ count: 42 });
    expect(errorMessageKey(limited('900'))).toBe('errors.rate_limited_minutes');
    expect(errorMessageValues(limited('900'))).toEqual({ count: 15 });
    // Not said, or not a number of seconds: the message without a wait.
    expect(errorMessageKey(limited('soon'))).toBe('errors.rate_limited');
    expect(errorMessageValues(httpError(429))).toEqual({});
    expect(errorMessageValues(httpError(500))).toEqual({});
  });

  it('maps statuses to translated common keys (the English detail is never shown)', () => {
    expect(errorMessageKey(httpError(429))).toBe('errors.rate_limited');
    expect(errorMessageKey(httpError(500))).toBe('errors.server');
    expect(errorMessageKey(httpError(503, { detail: 'down', code: 'database_unavailable' }))).toBe(
      'errors.unavailable',
    );
    expect(errorMessageKey(httpError(503))).toBe('errors.unavailable');
    expect(errorMessageKey(httpError(502))).toBe('errors.unavailable');
    expect(errorMessageKey(httpError(403))).toBe('errors.forbidden');
    expect(errorMessageKey(new TypeError('x'))).toBe('errors.unknown');
  });

  it('tells a timeout (the server may still act) from an unreachable server', async () => {
    const hanging = ky.create({ retry: 0, timeout: 20, fetch: () => new Promise<Response>(() => {}) });
    const timedOut = await hanging.get('http://localhost/api/x/').catch((e: unknown) => e);
    expect(readApiError(timedOut)).toMatchObject({ status: 0, code: 'timeout' });
    expect(errorMessageKey(timedOut)).toBe('errors.timeout');
    const refused = ky.create({ retry: 0, fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    const unreachable = await refused.get('http://localhost/api/x/').catch((e: unknown) => e);
    expect(errorMessageKey(unreachable)).toBe('errors.network');
  });

  it('reads errors thrown by another copy of ky (a remote’s), whose classes the minifier renamed', () => {
    // In a production bundle ky's classes are renamed (`class n extends Error`): its own guards,
    // which compare with the class's name, then know no other bundle's errors.
    renameKyClasses('n');
    // What a remote's bundle throws: ky's error names, not this bundle's classes.
    class n extends Error {
      override name = 'HTTPError';
      response = new Response(null, { status: 404 });
      data = { detail: 'Email not found', code: 'email_not_found' };
    }
    class t extends Error {
      override name = 'TimeoutError';
    }
    expect(readApiError(new n('x'))).toEqual({ status: 404, code: 'email_not_found', detail: 'Email not found' });
    expect(isHTTPError(new n('x'))).toBe(true);
    expect(readApiError(new t('x'))).toMatchObject({ status: 0, code: 'timeout' });
    // A name alone, without a response, is not an HTTP error.
    expect(isHTTPError(Object.assign(new Error('x'), { name: 'HTTPError' }))).toBe(false);
  });
  afterEach(() => renameKyClasses(null));
});
