import { NO_REFRESH_TOKEN_MESSAGE } from './errors';
import { REFRESH_LOCK_NAME, REFRESH_TIMEOUT_MS, refreshTokens } from './refresh';
import { jsonResponse, makeJwt, mockFetch } from './test-utils/http';

type LockCallback = () => Promise<unknown>;

/** A minimal Web Locks stand-in: callbacks of one name run one after the other. */
function installLocks() {
  const requested: string[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  const locks = {
    request: (name: string, cb: LockCallback) => {
      requested.push(name);
      const run = tail.then(cb);
      tail = run.catch(() => undefined);
      return run;
    },
  };
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  return { requested, restore: () => Reflect.deleteProperty(navigator, 'locks') };
}

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
});

describe('single-flight refresh', () => {
  it('N concurrent callers share ONE refresh call and get the same new token', async () => {
    localStorage.setItem('accessToken', 'stale');
    localStorage.setItem('refreshToken', 'r1');
    const fresh = makeJwt(300);
    const { calls } = mockFetch(async () => {
      await new Promise((r) => setTimeout(r, 20));
      return jsonResponse(200, { access: fresh, refresh: 'r2' });
    });
    const results = await Promise.all(Array.from({ length: 5 }, () => refreshTokens('stale')));
    expect(calls).toHaveLength(1);
    expect(results).toEqual(Array(5).fill(fresh));
    expect([localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]).toEqual([fresh, 'r2']);
  });

  it('a late caller holding the replaced token reuses the stored one instead of refreshing again', async () => {
    const fresh = makeJwt(300);
    localStorage.setItem('accessToken', fresh);
    localStorage.setItem('refreshToken', 'r2');
    const { calls } = mockFetch(() => jsonResponse(500));
    await expect(refreshTokens('stale')).resolves.toBe(fresh);
    expect(calls).toHaveLength(0);
  });

  it('rejects with "No refresh token available" when none is stored', async () => {
    const { calls } = mockFetch(() => jsonResponse(500));
    await expect(refreshTokens('stale')).rejects.toThrow(NO_REFRESH_TOKEN_MESSAGE);
    expect(calls).toHaveLength(0);
  });

  it('a new refresh can start after the previous one failed', async () => {
    localStorage.setItem('refreshToken', 'r1');
    let n = 0;
    mockFetch(() =>
      ++n === 1
        ? jsonResponse(401, { detail: 'x', code: 'invalid' })
        : jsonResponse(200, { access: 'a2', refresh: 'r2' }),
    );
    await expect(refreshTokens('stale')).rejects.toMatchObject({ status: 401 });
    await expect(refreshTokens('stale')).resolves.toBe('a2');
    expect(n).toBe(2);
  });

  it('a refresh the api never answers is given up after REFRESH_TIMEOUT_MS (status 0), freeing the single flight', async () => {
    jest.useFakeTimers();
    try {
      localStorage.setItem('refreshToken', 'r1');
      let n = 0;
      mockFetch((c) =>
        ++n === 1
          ? new Promise<Response>((_, reject) =>
              c.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
            )
          : jsonResponse(200, { access: 'a2', refresh: 'r2' }),
      );
      const hung = refreshTokens('stale');
      const outcome = hung.catch((e: unknown) => e);
      await jest.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS + 10);
      expect(await outcome).toMatchObject({ status: 0, code: 'network_error' });
      expect(localStorage.getItem('refreshToken')).toBe('r1');
      await expect(refreshTokens('stale')).resolves.toBe('a2');
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('across tabs (Web Locks API)', () => {
  it('takes the lock, and after waiting for it uses the pair another tab stored', async () => {
    const { requested, restore } = installLocks();
    try {
      localStorage.setItem('accessToken', 'stale');
      localStorage.setItem('refreshToken', 'r1');
      const { calls } = mockFetch(() => jsonResponse(500));
      // Another tab holds the lock and rotates the pair meanwhile.
      const otherTabPair = makeJwt(300);
      let release!: () => void;
      const otherTab = navigator.locks.request(REFRESH_LOCK_NAME, async () => {
        await new Promise<void>((r) => (release = r));
        localStorage.setItem('accessToken', otherTabPair);
        localStorage.setItem('refreshToken', 'r-other');
      });
      const mine = refreshTokens('stale');
      await new Promise((r) => setTimeout(r, 0)); // the other tab's callback is running
      release();
      await otherTab;
      await expect(mine).resolves.toBe(otherTabPair);
      expect(calls).toHaveLength(0);
      expect(requested).toEqual([REFRESH_LOCK_NAME, REFRESH_LOCK_NAME]);
    } finally {
      restore();
    }
  });
});
