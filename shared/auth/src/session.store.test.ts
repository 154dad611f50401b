import { AuthError, NoRefreshTokenError } from './errors';
import { LOGOUT_TIMEOUT_MS, resetSessionForTests, START_UP_USER_TIMEOUT_MS, useSession } from './session.store';
import { jsonResponse, makeJwt, mockFetch, USER } from './test-utils/http';

const state = () => useSession.getState();
const stored = () => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')];

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  jest.restoreAllMocks();
});

describe('start-up check (spec §4)', () => {
  it('is loading until checked, then unauthenticated without tokens and without any call', async () => {
    const { calls } = mockFetch(() => jsonResponse(500));
    expect(state().isLoading).toBe(true);
    await state().initialize();
    expect(calls).toHaveLength(0);
    expect(state()).toMatchObject({ isLoading: false, isAuthenticated: false, user: null });
  });

  it('with a valid access token fetches the current user and is authenticated', async () => {
    const access = makeJwt(300);
    localStorage.setItem('accessToken', access);
    localStorage.setItem('refreshToken', 'r1');
    const { calls } = mockFetch((c) => (c.url === '/api/users/me/' ? jsonResponse(200, USER) : jsonResponse(500)));
    await state().initialize();
    expect(calls.map((c) => c.url)).toEqual(['/api/users/me/']);
    expect(calls[0]!.authorization).toBe(`Bearer ${access}`);
    expect(state()).toMatchObject({ isLoading: false, isAuthenticated: true, user: USER });
  });

  it('with an expired access token refreshes first and stores BOTH rotated tokens', async () => {
    localStorage.setItem('accessToken', makeJwt(-10));
    localStorage.setItem('refreshToken', 'r-old');
    const fresh = makeJwt(300);
    const { calls } = mockFetch((c) => {
      if (c.url === '/api/auth/refresh/') return jsonResponse(200, { access: fresh, refresh: 'r-new' });
      if (c.url === '/api/users/me/') return jsonResponse(200, USER);
      return jsonResponse(500);
    });
    await state().initialize();
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/refresh/', '/api/users/me/']);
    expect(calls[0]!.body).toEqual({ refresh: 'r-old' });
    expect(calls[1]!.authorization).toBe(`Bearer ${fresh}`);
    expect(stored()).toEqual([fresh, 'r-new']);
    expect(state().isAuthenticated).toBe(true);
  });

  it('with an expired access token and a refused refresh clears the tokens', async () => {
    localStorage.setItem('accessToken', makeJwt(-10));
    localStorage.setItem('refreshToken', 'r-revoked');
    mockFetch(() => jsonResponse(401, { detail: 'no', code: 'invalid_token' }));
    await state().initialize();
    expect(stored()).toEqual([null, null]);
    // There was a session: the login page says it expired.
    expect(state()).toMatchObject({ isLoading: false, isAuthenticated: false, user: null, expired: true });
  });

  it('a session that ends on its own is "expired"; a sign-out is not, and the next sign-in clears it', async () => {
    useSession.setState({ isLoading: false });
    expect(state().expired).toBe(false); // a first visit, without tokens
    useSession.setState({ isAuthenticated: true, user: USER });
    state().expireSession(new AuthError('Refresh token revoked', 401, 'token_invalid'));
    expect(state()).toMatchObject({ isAuthenticated: false, expired: true });
    state().dismissExpired();
    expect(state().expired).toBe(false);
    useSession.setState({ isAuthenticated: true, user: USER });
    state().expireSession(new AuthError('Refresh token revoked', 401, 'token_invalid'));
    mockFetch((c) =>
      c.url === '/api/auth/login/'
        ? jsonResponse(200, { access: makeJwt(300), refresh: 'r1' })
        : jsonResponse(200, USER),
    );
    await state().login('jane@example.com', 'pw');
    expect(state()).toMatchObject({ isAuthenticated: true, expired: false });
    await state().logout();
    expect(state()).toMatchObject({ isAuthenticated: false, expired: false });
  });

  it('with a refresh the api cannot answer (network down) KEEPS the tokens: unreachable, not signed out', async () => {
    const old = makeJwt(-10);
    localStorage.setItem('accessToken', old);
    localStorage.setItem('refreshToken', 'r1');
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await state().initialize();
    expect(state()).toMatchObject({ isLoading: false, isAuthenticated: false, expired: false, unreachable: true });
    expect(stored()).toEqual([old, 'r1']);
  });

  it('a 503 database_unavailable from the refresh keeps the tokens; Retry once the api is back signs in', async () => {
    const old = makeJwt(-10);
    localStorage.setItem('accessToken', old);
    localStorage.setItem('refreshToken', 'r1');
    let down = true;
    const fresh = makeJwt(300);
    const { calls } = mockFetch((c) => {
      if (down) return jsonResponse(503, { detail: 'The database is not answering.', code: 'database_unavailable' });
      if (c.url === '/api/auth/refresh/') return jsonResponse(200, { access: fresh, refresh: 'r2' });
      return jsonResponse(200, USER);
    });
    await state().initialize();
    expect(state()).toMatchObject({ isAuthenticated: false, unreachable: true, expired: false });
    expect(stored()).toEqual([old, 'r1']);
    down = false;
    await state().retryStartUp();
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/refresh/', '/api/auth/refresh/', '/api/users/me/']);
    expect(calls[1]!.body).toEqual({ refresh: 'r1' }); // the same refresh token, never thrown away
    expect(state()).toMatchObject({ isAuthenticated: true, unreachable: false, user: USER });
    expect(stored()).toEqual([fresh, 'r2']);
  });

  it('a 5xx from /api/users/me/ with a valid access token keeps the tokens (unreachable)', async () => {
    const access = makeJwt(300);
    localStorage.setItem('accessToken', access);
    localStorage.setItem('refreshToken', 'r1');
    mockFetch(() => jsonResponse(502));
    await state().initialize();
    expect(state()).toMatchObject({ isAuthenticated: false, unreachable: true });
    expect(stored()).toEqual([access, 'r1']);
  });

  it('an api that never answers the current user ends in "unreachable" after START_UP_USER_TIMEOUT_MS', async () => {
    jest.useFakeTimers();
    try {
      localStorage.setItem('accessToken', makeJwt(300));
      localStorage.setItem('refreshToken', 'r1');
      mockFetch(
        (c) =>
          new Promise<Response>((_, reject) =>
            c.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      );
      const done = state().initialize();
      await jest.advanceTimersByTimeAsync(START_UP_USER_TIMEOUT_MS + 10);
      await done;
      expect(state()).toMatchObject({ isLoading: false, unreachable: true, isAuthenticated: false });
      expect(localStorage.getItem('refreshToken')).toBe('r1');
    } finally {
      jest.useRealTimers();
    }
  });

  it('while unreachable, a sign-out in another tab (refresh token gone) signs this tab out too', async () => {
    localStorage.setItem('accessToken', makeJwt(-10));
    localStorage.setItem('refreshToken', 'r1');
    mockFetch(() => jsonResponse(503, { detail: 'down', code: 'database_unavailable' }));
    await state().initialize();
    expect(state().unreachable).toBe(true);
    localStorage.removeItem('refreshToken');
    window.dispatchEvent(new StorageEvent('storage', { key: 'refreshToken', newValue: null }));
    expect(state()).toMatchObject({ unreachable: false, isAuthenticated: false, isLoading: false });
  });

  it('a refusal still signs out at start-up when the user fetch is refused after a 503-free refresh', async () => {
    localStorage.setItem('accessToken', makeJwt(-10));
    localStorage.setItem('refreshToken', 'r1');
    mockFetch((c) =>
      c.url === '/api/auth/refresh/'
        ? jsonResponse(200, { access: makeJwt(300), refresh: 'r2' })
        : jsonResponse(403, { detail: 'inactive', code: 'account_inactive' }),
    );
    await state().initialize();
    expect(state()).toMatchObject({ isAuthenticated: false, unreachable: false });
    expect(stored()).toEqual([null, null]);
  });

  it('with a missing access token and no refresh token is unauthenticated without a call', async () => {
    const { calls } = mockFetch(() => jsonResponse(500));
    localStorage.setItem('accessToken', makeJwt(-10));
    await state().initialize();
    expect(calls).toHaveLength(0);
    expect(state().isAuthenticated).toBe(false);
    expect(stored()).toEqual([null, null]);
  });

  it('clears the tokens when the current user cannot be fetched (a revoked session: its refresh fails too)', async () => {
    localStorage.setItem('accessToken', makeJwt(300));
    localStorage.setItem('refreshToken', 'r1');
    const { calls } = mockFetch(() => jsonResponse(401, { detail: 'revoked', code: 'session_revoked' }));
    await state().initialize();
    expect(calls.map((c) => c.url)).toEqual(['/api/users/me/', '/api/auth/refresh/']);
    expect(stored()).toEqual([null, null]);
    expect(state().isAuthenticated).toBe(false);
  });

  it('an access token refused though this clock calls it valid (expired on the way, clocks apart): one refresh', async () => {
    const early = makeJwt(1);
    localStorage.setItem('accessToken', early);
    localStorage.setItem('refreshToken', 'r1');
    const fresh = makeJwt(300);
    const { calls } = mockFetch((c) => {
      if (c.url === '/api/auth/refresh/') return jsonResponse(200, { access: fresh, refresh: 'r2' });
      if (c.url === '/api/users/me/' && c.authorization === `Bearer ${fresh}`) return jsonResponse(200, USER);
      return jsonResponse(401, { detail: 'The token has expired.', code: 'token_expired' });
    });
    await state().initialize();
    expect(calls.map((c) => c.url)).toEqual(['/api/users/me/', '/api/auth/refresh/', '/api/users/me/']);
    expect(calls[1]!.body).toEqual({ refresh: 'r1' });
    expect(stored()).toEqual([fresh, 'r2']);
    expect(state()).toMatchObject({ isAuthenticated: true, user: USER });
  });

  it('runs once however often it is called', async () => {
    localStorage.setItem('accessToken', makeJwt(300));
    const { calls } = mockFetch(() => jsonResponse(200, USER));
    await Promise.all([state().initialize(), state().initialize()]);
    await state().initialize();
    expect(calls).toHaveLength(1);
  });
});

describe('login, second factor, logout (spec §4)', () => {
  beforeEach(() => useSession.setState({ isLoading: false }));

  it('stores the tokens, fetches the user and clears the two-factor state', async () => {
    const access = makeJwt(300);
    useSession.setState({ requires2FA: true, partialToken: 'old' });
    const { calls } = mockFetch((c) =>
      c.url === '/api/auth/login/' ? jsonResponse(200, { access, refresh: 'r1' }) : jsonResponse(200, USER),
    );
    await expect(state().login('jane@example.com', 'pw')).resolves.toBe('authenticated');
    expect(calls[0]).toMatchObject({
      url: '/api/auth/login/',
      method: 'POST',
      body: { email: 'jane@example.com', password: 'pw' },
    });
    expect(stored()).toEqual([access, 'r1']);
    expect(state()).toMatchObject({ isAuthenticated: true, user: USER, requires2FA: false, partialToken: null });
  });

  it('keeps the partial token when a second factor is required, without storing tokens', async () => {
    mockFetch(() => jsonResponse(200, { requires_2fa: true, partial_token: 'partial-1' }));
    await expect(state().login('jane@example.com', 'pw')).resolves.toBe('requires_2fa');
    expect(state()).toMatchObject({ requires2FA: true, partialToken: 'partial-1', isAuthenticated: false });
    expect(stored()).toEqual([null, null]);
  });

  it('rethrows a failed sign-in as an AuthError with its status', async () => {
    mockFetch(() => jsonResponse(401, { detail: 'Invalid credentials', code: 'invalid_credentials' }));
    const error = await state()
      .login('jane@example.com', 'bad')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect(state().isAuthenticated).toBe(false);
  });

  it('verifies the code with the partial token, then signs in', async () => {
    useSession.setState({ requires2FA: true, partialToken: 'partial-1' });
    const access = makeJwt(300);
    const { calls } = mockFetch((c) =>
      c.url === '/api/auth/verify-totp/' ? jsonResponse(200, { access, refresh: 'r2' }) : jsonResponse(200, USER),
    );
    await state().verifyTotp('123456');
    expect(calls[0]!.body).toEqual({ partial_token: 'partial-1', totp_code: '123456' });
    expect(state()).toMatchObject({ isAuthenticated: true, partialToken: null, requires2FA: false });
  });

  it('verifies a backup code as backup_code (DESIGN §7)', async () => {
    useSession.setState({ requires2FA: true, partialToken: 'partial-1' });
    const { calls } = mockFetch((c) =>
      c.url === '/api/auth/verify-totp/'
        ? jsonResponse(200, { access: makeJwt(300), refresh: 'r2' })
        : jsonResponse(200, USER),
    );
    await state().verifyTotp('ABCD-2345', 'backup');
    expect(calls[0]!.body).toEqual({ partial_token: 'partial-1', backup_code: 'ABCD-2345' });
    expect(state()).toMatchObject({ isAuthenticated: true, partialToken: null, requires2FA: false });
  });

  it('a wrong code keeps the step; a rate limit (burned partial token) goes back to the password step', async () => {
    useSession.setState({ requires2FA: true, partialToken: 'partial-1' });
    let answer = jsonResponse(401, { detail: 'bad', code: 'invalid_code' });
    mockFetch(() => answer);
    await expect(state().verifyTotp('123456')).rejects.toMatchObject({ status: 401, code: 'invalid_code' });
    expect(state()).toMatchObject({ requires2FA: true, partialToken: 'partial-1' });

    answer = jsonResponse(429, { detail: 'slow down', code: 'rate_limited' });
    await expect(state().verifyTotp('123456')).rejects.toMatchObject({ status: 429 });
    expect(state()).toMatchObject({ requires2FA: false, partialToken: null, isAuthenticated: false });
  });

  it('an expired or invalid challenge also goes back to the password step', async () => {
    useSession.setState({ requires2FA: true, partialToken: 'partial-1' });
    mockFetch(() => jsonResponse(401, { detail: 'expired', code: 'token_expired' }));
    await expect(state().verifyTotp('123456')).rejects.toBeInstanceOf(AuthError);
    expect(state()).toMatchObject({ requires2FA: false, partialToken: null });
  });

  describe('two-factor set-up required by the account (issue 16: requires_2fa_setup)', () => {
    const SETUP = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' };

    it('sign-in answers the set-up challenge: the set-up step, no token stored', async () => {
      mockFetch(() => jsonResponse(200, { requires_2fa_setup: true, partial_token: 'setup-1' }));
      await expect(state().login('jane@example.com', 'pw')).resolves.toBe('requires_2fa_setup');
      expect(state()).toMatchObject({
        requires2FASetup: true,
        requires2FA: false,
        partialToken: 'setup-1',
        isAuthenticated: false,
      });
      expect(stored()).toEqual([null, null]);
    });

    it('set-up and enable go with the set-up token as Bearer; the session starts once the codes were shown', async () => {
      useSession.setState({ requires2FASetup: true, partialToken: 'setup-1' });
      const access = makeJwt(300);
      const { calls } = mockFetch((c) => {
        if (c.url === '/api/users/me/mfa/setup/') return jsonResponse(200, SETUP);
        if (c.url === '/api/users/me/mfa/enable/')
          return jsonResponse(200, { backup_codes: ['AAAA', 'BBBB'], access, refresh: 'r-setup' });
        return jsonResponse(200, USER);
      });
      await expect(state().setupTwoFactor()).resolves.toEqual(SETUP);
      await expect(state().enableTwoFactor('123456')).resolves.toEqual(['AAAA', 'BBBB']);
      expect(calls.map((c) => [c.url, c.authorization, c.body])).toEqual([
        ['/api/users/me/mfa/setup/', 'Bearer setup-1', {}],
        ['/api/users/me/mfa/enable/', 'Bearer setup-1', { totp_code: '123456' }],
      ]);
      // The backup codes are on screen: not signed in yet, nothing stored.
      expect(state()).toMatchObject({ isAuthenticated: false, requires2FASetup: true });
      expect(stored()).toEqual([null, null]);
      await state().finishTwoFactorSetup();
      expect(calls.at(-1)).toMatchObject({ url: '/api/users/me/', authorization: `Bearer ${access}` });
      expect(stored()).toEqual([access, 'r-setup']);
      expect(state()).toMatchObject({ isAuthenticated: true, user: USER, requires2FASetup: false, partialToken: null });
    });

    it('a wrong code keeps the step; a refused set-up token (401) goes back to the password form', async () => {
      useSession.setState({ requires2FASetup: true, partialToken: 'setup-1' });
      let answer = jsonResponse(400, { detail: 'bad', code: 'invalid_code', errors: { totp_code: 'x' } });
      mockFetch(() => answer);
      await expect(state().enableTwoFactor('123456')).rejects.toMatchObject({ status: 400, code: 'invalid_code' });
      expect(state()).toMatchObject({ requires2FASetup: true, partialToken: 'setup-1' });
      answer = jsonResponse(401, { detail: 'expired', code: 'token_expired' });
      await expect(state().setupTwoFactor()).rejects.toMatchObject({ status: 401 });
      expect(state()).toMatchObject({ requires2FASetup: false, partialToken: null, isAuthenticated: false });
      // Nothing to finish.
      await expect(state().finishTwoFactorSetup()).rejects.toMatchObject({ code: 'no_partial_token' });
    });

    it('without the set-up step nothing is sent (a second-factor token is no set-up token)', async () => {
      useSession.setState({ requires2FA: true, partialToken: 'partial-1' });
      const { calls } = mockFetch(() => jsonResponse(200, SETUP));
      await expect(state().setupTwoFactor()).rejects.toMatchObject({ code: 'no_partial_token' });
      expect(calls).toHaveLength(0);
    });

    it('back to sign-in forgets the set-up token and a session held aside', async () => {
      useSession.setState({ requires2FASetup: true, partialToken: 'setup-1' });
      mockFetch(() => jsonResponse(200, { backup_codes: ['AAAA'], access: makeJwt(300), refresh: 'r' }));
      await state().enableTwoFactor('123456');
      state().cancelTwoFactor();
      expect(state()).toMatchObject({ requires2FASetup: false, partialToken: null });
      await expect(state().finishTwoFactorSetup()).rejects.toMatchObject({ code: 'no_partial_token' });
      expect(stored()).toEqual([null, null]);
    });
  });

  it('refuses to verify without a partial token (spec §5)', async () => {
    const { calls } = mockFetch(() => jsonResponse(200, {}));
    await expect(state().verifyTotp('123456')).rejects.toThrow('Jeton partiel non disponible');
    expect(calls).toHaveLength(0);
  });

  it('logout posts the refresh token, then clears the tokens and the user', async () => {
    localStorage.setItem('accessToken', 'a1');
    localStorage.setItem('refreshToken', 'r1');
    useSession.setState({ isAuthenticated: true, user: USER });
    const { calls } = mockFetch(() => new Response(null, { status: 204 }));
    await state().logout();
    expect(calls[0]).toMatchObject({
      url: '/api/auth/logout/',
      method: 'POST',
      body: { refresh: 'r1' },
      authorization: 'Bearer a1',
    });
    expect(stored()).toEqual([null, null]);
    expect(state()).toMatchObject({ isAuthenticated: false, user: null });
  });

  it('logout still signs out locally when the server cannot be reached', async () => {
    localStorage.setItem('refreshToken', 'r1');
    useSession.setState({ isAuthenticated: true, user: USER });
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await state().logout();
    expect(stored()).toEqual([null, null]);
    expect(state().isAuthenticated).toBe(false);
  });

  it('logout signs out locally once the api has not answered for LOGOUT_TIMEOUT_MS', async () => {
    jest.useFakeTimers();
    try {
      localStorage.setItem('refreshToken', 'r1');
      useSession.setState({ isAuthenticated: true, user: USER });
      let aborted = false;
      mockFetch(
        (c) =>
          new Promise<Response>((_, reject) =>
            c.signal?.addEventListener('abort', () => {
              aborted = true;
              reject(new DOMException('Aborted', 'AbortError'));
            }),
          ),
      );
      const done = state().logout();
      await jest.advanceTimersByTimeAsync(LOGOUT_TIMEOUT_MS - 1);
      expect(state().isAuthenticated).toBe(true);
      await jest.advanceTimersByTimeAsync(1);
      await done;
      expect(aborted).toBe(true);
      expect(stored()).toEqual([null, null]);
      expect(state().isAuthenticated).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('single sign-on: the ticket trades like a password (issue 32)', () => {
  beforeEach(() => useSession.setState({ isLoading: false }));

  /** The state a sign-in leaves, by password or by ticket, the same for both. */
  async function signInBoth(answer: () => Response) {
    const outcomes: { outcome: unknown; state: unknown; stored: unknown }[] = [];
    for (const run of [() => state().login('jane@example.com', 'pw'), () => state().exchangeSsoTicket('ticket-1')]) {
      localStorage.clear();
      resetSessionForTests();
      useSession.setState({ isLoading: false });
      jest.restoreAllMocks();
      mockFetch((c) => (c.url === '/api/users/me/' ? jsonResponse(200, USER) : answer()));
      const outcome = await run();
      const { user, isAuthenticated, isLoading, requires2FA, requires2FASetup, partialToken, expired } = state();
      outcomes.push({
        outcome,
        state: { user, isAuthenticated, isLoading, requires2FA, requires2FASetup, partialToken, expired },
        stored: stored(),
      });
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    return outcomes[1]!;
  }

  it('posts the ticket to /api/auth/oidc/exchange/, then signs in with the pair', async () => {
    const access = makeJwt(300);
    const { calls } = mockFetch((c) =>
      c.url === '/api/auth/oidc/exchange/' ? jsonResponse(200, { access, refresh: 'r1' }) : jsonResponse(200, USER),
    );
    await expect(state().exchangeSsoTicket('ticket-1')).resolves.toBe('authenticated');
    expect(calls.map((c) => [c.method, c.url, c.body, c.authorization])).toEqual([
      ['POST', '/api/auth/oidc/exchange/', { ticket: 'ticket-1' }, null],
      ['GET', '/api/users/me/', undefined, `Bearer ${access}`],
    ]);
    expect(stored()).toEqual([access, 'r1']);
    expect(state()).toMatchObject({ isAuthenticated: true, user: USER });
  });

  it('a token pair: the same outcome and state as a password sign-in', async () => {
    const access = makeJwt(300);
    const both = await signInBoth(() => jsonResponse(200, { access, refresh: 'r1' }));
    expect(both).toMatchObject({ outcome: 'authenticated', stored: [access, 'r1'] });
  });

  it('a second factor to give: the code step, as after a password', async () => {
    const both = await signInBoth(() => jsonResponse(200, { requires_2fa: true, partial_token: 'partial-1' }));
    expect(both).toMatchObject({
      outcome: 'requires_2fa',
      state: { requires2FA: true, partialToken: 'partial-1', isAuthenticated: false },
      stored: [null, null],
    });
  });

  it('a second factor to set up: the set-up step, as after a password', async () => {
    const both = await signInBoth(() => jsonResponse(200, { requires_2fa_setup: true, partial_token: 'setup-1' }));
    expect(both).toMatchObject({
      outcome: 'requires_2fa_setup',
      state: { requires2FASetup: true, partialToken: 'setup-1', isAuthenticated: false },
      stored: [null, null],
    });
  });

  it('an unknown, used or stale ticket: AuthError 401 sso_ticket_invalid, nothing stored', async () => {
    mockFetch(() => jsonResponse(401, { detail: 'Invalid ticket', code: 'sso_ticket_invalid' }));
    await expect(state().exchangeSsoTicket('old')).rejects.toMatchObject({
      name: 'AuthError',
      status: 401,
      code: 'sso_ticket_invalid',
    });
    expect(stored()).toEqual([null, null]);
    expect(state()).toMatchObject({ isAuthenticated: false, requires2FA: false, partialToken: null });
  });
});

describe('expireSession: only a refusal signs out', () => {
  it('a network error or a 5xx keeps the tokens and the session; 401/403 or no refresh token sign out', () => {
    useSession.setState({ isAuthenticated: true, isLoading: false, user: USER });
    localStorage.setItem('accessToken', 'a');
    localStorage.setItem('refreshToken', 'r');
    expect(state().expireSession(new AuthError('Failed to fetch', 0, 'network_error'))).toBe(false);
    expect(state().expireSession(new AuthError('down', 503, 'database_unavailable'))).toBe(false);
    expect(state().expireSession(new AuthError('bad gateway', 502, 'http_502'))).toBe(false);
    expect(state().expireSession(new SyntaxError('Unexpected token <'))).toBe(false);
    expect(state().expireSession(new AuthError('slow down', 429, 'rate_limited'))).toBe(false);
    expect(state().expireSession(new AuthError('timeout', 408, 'http_408'))).toBe(false);
    expect(state()).toMatchObject({ isAuthenticated: true, user: USER, expired: false });
    expect(stored()).toEqual(['a', 'r']);
    expect(state().expireSession(new NoRefreshTokenError())).toBe(true);
    expect(state()).toMatchObject({ isAuthenticated: false, expired: false });
    expect(stored()).toEqual([null, null]);
    useSession.setState({ isAuthenticated: true, user: USER });
    localStorage.setItem('refreshToken', 'r');
    expect(state().expireSession(new AuthError('revoked', 403, 'forbidden'))).toBe(true);
    expect(state()).toMatchObject({ isAuthenticated: false, expired: true });
    expect(stored()).toEqual([null, null]);
    // A refresh token the api cannot read (400 validation_error) would fail the same way for ever.
    useSession.setState({ isAuthenticated: true, user: USER });
    localStorage.setItem('refreshToken', 'r'.repeat(600));
    expect(state().expireSession(new AuthError('The request is not valid.', 400, 'validation_error'))).toBe(true);
    expect(stored()).toEqual([null, null]);
  });
});
