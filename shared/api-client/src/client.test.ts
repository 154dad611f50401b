import { HTTPError } from 'ky';
import { errorMessageKey, readApiError } from './client';

function httpError(status: number, data?: unknown) {
  const request = new Request('http://localhost/api/x/');
  const error = new HTTPError(new Response(null, { status }), request, {} as never);
  (error as { data: unknown }).data = data;
  return error;
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

  it('maps statuses to translated common keys (the English detail is never shown)', () => {
    expect(errorMessageKey(httpError(429))).toBe('errors.rate_limited');
    expect(errorMessageKey(httpError(503))).toBe('errors.server');
    expect(errorMessageKey(httpError(403))).toBe('errors.forbidden');
    expect(errorMessageKey(new TypeError('x'))).toBe('errors.unknown');
  });
});
