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

  it('the directory’s refusals (issue 31) by their code, a 503 directory_unavailable before the 5xx rule', () => {
    expect(loginErrorKey(new AuthError('LDAP down', 503, 'directory_unavailable'), 'password')).toBe(
      'host:login.directory_unavailable',
    );
    expect(loginErrorKey(new AuthError('no domain', 403, 'directory_no_domain'), 'password')).toBe(
      'host:login.directory_no_domain',
    );
    expect(loginErrorKey(new AuthError('taken', 403, 'directory_address_conflict'), 'password')).toBe(
      'host:login.directory_address_conflict',
    );
  });
});
