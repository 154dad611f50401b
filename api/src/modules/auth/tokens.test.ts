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

  test('a cached access token does not pass as a partial token', async () => {
    const tokens = createTokenService('x'.repeat(43), { access: 60, partial: 60 });
    const token = await tokens.signAccess('user-1', 'session-1');
    await tokens.verify(token, 'access');
    await expect(tokens.verify(token, 'partial')).rejects.toMatchObject({ code: 'token_invalid' });
  });
});
