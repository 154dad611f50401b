import { resetSessionForTests, useSession } from '@qc/auth';
import { api, errorMessageKey, getDashboardCounts, readApiError } from './client';

function makeJwt(expInSeconds: number, id: string): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256' })}.${enc({ exp: Math.floor(Date.now() / 1000) + expInSeconds, jti: id })}.s`;
}
const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

interface Seen {
  path: string;
  auth: string | null;
  body: string;
}

/** A fake API: accepts only `valid` as access token; /api/auth/refresh/ answers `onRefresh`. */
function fakeApi(opts: {
  valid: () => string;
  onRefresh: (body: { refresh?: string }) => Response | Promise<Response>;
}) {
  const seen: Seen[] = [];
  const spy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = input instanceof Request ? input : new Request(String(input), init);
    const path = new URL(req.url).pathname;
    const body = req.body ? await req.text() : '';
    seen.push({ path, auth: req.headers.get('Authorization'), body });
    if (path === '/api/auth/refresh/') return opts.onRefresh(JSON.parse(body) as { refresh?: string });
    if (path.startsWith('/api/auth/')) return json(401, { detail: 'Invalid credentials', code: 'invalid_credentials' });
    if (req.headers.get('Authorization') !== `Bearer ${opts.valid()}`)
      return json(401, { detail: 'expired', code: 'token_expired' });
    return json(200, { path, echo: body || null });
  });
  return { seen, spy, refreshes: () => seen.filter((s) => s.path === '/api/auth/refresh/') };
}

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  resetSessionForTests();
});

describe('api client: Bearer header, refresh on 401, replay once', () => {
  it('adds the Bearer header of the stored access token', async () => {
    const token = makeJwt(300, 'a');
    localStorage.setItem('accessToken', token);
    const { seen } = fakeApi({ valid: () => token, onRefresh: () => json(500) });
    await api.get('dashboard/').json();
    expect(seen[0]).toMatchObject({ path: '/api/dashboard/', auth: `Bearer ${token}` });
  });

  it('N concurrent 401s trigger ONE refresh; every request is replayed once with the new token', async () => {
    localStorage.setItem('accessToken', makeJwt(-5, 'old'));
    localStorage.setItem('refreshToken', 'r1');
    let current = 'none';
    const api5 = fakeApi({
      valid: () => current,
      onRefresh: async (b) => {
        await new Promise((r) => setTimeout(r, 20));
        expect(b.refresh).toBe('r1');
        current = makeJwt(300, 'new');
        return json(200, { access: current, refresh: 'r2' });
      },
    });
    const results = await Promise.all([
      api.get('dashboard/').json<{ path: string }>(),
      api.get('users/me/').json<{ path: string }>(),
      api.get('quarantine/').json<{ path: string }>(),
      api.post('quarantine/bulk/', { json: { ids: ['1'], action: 'release' } }).json<{ path: string; echo: string }>(),
    ]);
    expect(api5.refreshes()).toHaveLength(1);
    expect(results.map((r) => r.path)).toEqual([
      '/api/dashboard/',
      '/api/users/me/',
      '/api/quarantine/',
      '/api/quarantine/bulk/',
    ]);
    expect(results[3]!.echo).toBe(JSON.stringify({ ids: ['1'], action: 'release' })); // body replayed intact
    const replays = api5.seen.filter((s) => s.auth === `Bearer ${current}`);
    expect(replays).toHaveLength(4);
    expect(localStorage.getItem('refreshToken')).toBe('r2');
  });

  it('replays only once: a second 401 goes back to the caller without another refresh', async () => {
    localStorage.setItem('accessToken', makeJwt(300, 'a'));
    localStorage.setItem('refreshToken', 'r1');
    const { seen, refreshes } = fakeApi({
      valid: () => 'never-valid',
      onRefresh: () => json(200, { access: makeJwt(300, `n${Math.random()}`), refresh: 'r2' }),
    });
    await expect(api.get('dashboard/').json()).rejects.toMatchObject({ response: { status: 401 } });
    expect(refreshes()).toHaveLength(1);
    expect(seen.filter((s) => s.path === '/api/dashboard/')).toHaveLength(2);
  });

  it('never refreshes on /api/auth/*: a 401 from sign-in is a failed sign-in', async () => {
    localStorage.setItem('refreshToken', 'r1');
    const { refreshes } = fakeApi({ valid: () => 'x', onRefresh: () => json(200, { access: 'a', refresh: 'b' }) });
    await expect(api.post('auth/login/', { json: { email: 'a@b.c', password: 'x' } }).json()).rejects.toMatchObject({
      response: { status: 401 },
    });
    expect(refreshes()).toHaveLength(0);
    expect(localStorage.getItem('refreshToken')).toBe('r1');
  });

  it('a failed refresh clears both tokens and ends the session (the host then shows /login)', async () => {
    localStorage.setItem('accessToken', makeJwt(-5, 'old'));
    localStorage.setItem('refreshToken', 'revoked');
    useSession.setState({ isAuthenticated: true, isLoading: false });
    const { seen } = fakeApi({
      valid: () => 'x',
      onRefresh: () => json(401, { detail: 'revoked', code: 'invalid_token' }),
    });
    await expect(getDashboardCounts()).rejects.toMatchObject({ response: { status: 401 } });
    expect([localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]).toEqual([null, null]);
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(seen.filter((s) => s.path === '/api/dashboard/')).toHaveLength(1); // not replayed
  });

  it('without a refresh token ("No refresh token available") it clears and signs out without calling refresh', async () => {
    localStorage.setItem('accessToken', makeJwt(-5, 'old'));
    useSession.setState({ isAuthenticated: true, isLoading: false });
    const { refreshes } = fakeApi({ valid: () => 'x', onRefresh: () => json(200, {}) });
    await expect(getDashboardCounts()).rejects.toMatchObject({ response: { status: 401 } });
    expect(refreshes()).toHaveLength(0);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(useSession.getState().isAuthenticated).toBe(false);
  });

  it('a refresh answered 503 (database down) keeps BOTH tokens and the session; the caller reads "unavailable"; later it works', async () => {
    const old = makeJwt(-5, 'old');
    localStorage.setItem('accessToken', old);
    localStorage.setItem('refreshToken', 'r1');
    useSession.setState({ isAuthenticated: true, isLoading: false });
    let down = true;
    let current = 'none';
    const { refreshes } = fakeApi({
      valid: () => current,
      onRefresh: (b) => {
        if (down)
          return new Response(
            JSON.stringify({ detail: 'The database is not answering.', code: 'database_unavailable' }),
            {
              status: 503,
              headers: { 'Content-Type': 'application/json', 'Retry-After': '5' },
            },
          );
        expect(b.refresh).toBe('r1');
        current = makeJwt(300, 'new');
        return json(200, { access: current, refresh: 'r2' });
      },
    });
    const error = await getDashboardCounts().catch((e: unknown) => e);
    expect(readApiError(error)).toMatchObject({ status: 503, code: 'database_unavailable' });
    expect(errorMessageKey(error)).toBe('errors.unavailable');
    expect([localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]).toEqual([old, 'r1']);
    expect(useSession.getState()).toMatchObject({ isAuthenticated: true, expired: false });
    down = false; // the outage ends: the next request (a Reload) refreshes and works
    await expect(getDashboardCounts()).resolves.toMatchObject({ path: '/api/dashboard/' });
    expect(refreshes()).toHaveLength(2);
    expect(localStorage.getItem('refreshToken')).toBe('r2');
  });

  it('a refresh that gets no answer (network down) keeps the tokens; the caller gets a network error', async () => {
    const old = makeJwt(-5, 'old');
    localStorage.setItem('accessToken', old);
    localStorage.setItem('refreshToken', 'r1');
    useSession.setState({ isAuthenticated: true, isLoading: false });
    fakeApi({
      valid: () => 'x',
      onRefresh: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await getDashboardCounts().catch((e: unknown) => e);
    expect(errorMessageKey(error)).toBe('errors.network');
    expect([localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]).toEqual([old, 'r1']);
    expect(useSession.getState().isAuthenticated).toBe(true);
  });
});
