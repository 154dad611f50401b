import { createTokenService } from './tokens';

describe('token service', () => {
  afterEach(() => jest.useRealTimers());

  test('a token verified once is still refused once it has expired (the cache rechecks exp)', async () => {
    const tokens = createTokenService('x'.repeat(43), { access: 60, partial: 60 });
    const token = await tokens.signAccess('user-1', 'session-1');
    await expect(tokens.verify(token, 'access')).resolves.toMatchObject({ sub: 'user-1', sid: 'session-1' });
    jest.useFakeTimers({ now: Date.now() + 61_000, doNotFake: ['nextTick', 'setImmediate'] });
    await expect(tokens.verify(token, 'access')).rejects.toMatchObject({ code: 'token_expired' });
  });

  test('a set-up token passes only where it is expected: elsewhere 403 mfa_setup_required', async () => {
    const tokens = createTokenService('x'.repeat(43), { access: 60, partial: 60, setup: 900 });
    const token = await tokens.signSetup('user-1');
    const claims = await tokens.verify(token, ['access', 'setup']);
    expect(claims).toMatchObject({ typ: 'setup', sub: 'user-1' });
    expect(claims.exp - claims.iat).toBe(900); // the set-up's lifetime, not the partial token's
    for (const typ of ['access', 'partial'] as const) {
      await expect(tokens.verify(token, typ)).rejects.toMatchObject({ statusCode: 403, code: 'mfa_setup_required' });
    }
    // Nor does another kind pass as a set-up token.
    const partial = await tokens.signPartial('user-1');
    await expect(tokens.verify(partial, 'setup')).rejects.toMatchObject({ statusCode: 401, code: 'token_invalid' });
    const access = await tokens.signAccess('user-1', 'session-1');
    await expect(tokens.verify(access, 'setup')).rejects.toMatchObject({ statusCode: 401, code: 'token_invalid' });
  });

  test('a cached access token does not pass as a partial token', async () => {
    const tokens = createTokenService('x'.repeat(43), { access: 60, partial: 60 });
    const token = await tokens.signAccess('user-1', 'session-1');
    await tokens.verify(token, 'access');
    await expect(tokens.verify(token, 'partial')).rejects.toMatchObject({ code: 'token_invalid' });
  });
});
