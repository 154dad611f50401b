import { AuthError } from '@qc/auth';
import { loginErrorKey } from './login-errors';

describe('a failed sign-in step in words (spec §8)', () => {
  it('a database outage or an unreachable api (502–504) is "try again soon", another 5xx the server error', () => {
    expect(loginErrorKey(new AuthError('down', 503, 'database_unavailable', 5), 'password')).toBe(
      'common:errors.unavailable',
    );
    expect(loginErrorKey(new AuthError('bad gateway', 502, 'http_502'), 'totp')).toBe('common:errors.unavailable');
    expect(loginErrorKey(new AuthError('boom', 500, 'internal_error'), 'password')).toBe('common:errors.server');
    expect(loginErrorKey(new AuthError('Invalid e-mail or password.', 401, 'invalid_credentials'), 'password')).toBe(
      'host:login.error',
    );
  });
});
