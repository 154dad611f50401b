import { registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { fetchWithin, loadRemotes, REMOTES_TIMEOUT_MS, resetRemotesForTests, useRemotes } from './remotes';

jest.mock('@module-federation/enhanced/runtime', () => ({
  registerRemotes: jest.fn(),
  registerPlugins: jest.fn(),
}));

interface Plugin {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  errorLoadRemote: () => unknown;
}
const plugin = () => (registerPlugins as jest.Mock).mock.calls[0][0][0] as Plugin;
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
/** A server that accepts the request and never answers (until aborted). */
const never = (_: unknown, init?: RequestInit) =>
  new Promise<Response>((_resolve, reject) =>
    init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
  );

beforeEach(() => {
  resetRemotesForTests();
  jest.restoreAllMocks();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  jest.useRealTimers();
  resetRemotesForTests();
});

describe('runtime remotes (DESIGN §3)', () => {
  it('a /remotes.json that never answers ends in "failed" after REMOTES_TIMEOUT_MS, not an endless spinner', async () => {
    jest.useFakeTimers();
    jest.spyOn(globalThis, 'fetch').mockImplementation(never as typeof fetch);
    const done = loadRemotes();
    await jest.advanceTimersByTimeAsync(REMOTES_TIMEOUT_MS + 10);
    await expect(done).resolves.toMatchObject({ status: 'failed' });
    expect(useRemotes.getState().status).toBe('failed');
  });

  it('after a failed read, the next call reads /remotes.json again (a corrected file is picked up)', async () => {
    const fetchSpy = jest
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(new Response('nope', { status: 500 }))
      .mockResolvedValueOnce(json({ remote_mail: '/remotes/remote-mail/mf-manifest.json' }));
    await expect(loadRemotes()).resolves.toMatchObject({ status: 'failed' });
    await expect(loadRemotes()).resolves.toMatchObject({ status: 'ready' });
    expect(fetchSpy).toHaveBeenCalledTimes(2);
    expect(useRemotes.getState().remotes.remote_mail).toBe('http://localhost/remotes/remote-mail/mf-manifest.json');
  });

  it('a remote that failed to load makes the next call re-read /remotes.json and re-register a moved remote', async () => {
    jest
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json({ remote_mail: 'http://wrong.example/mf-manifest.json' }))
      .mockResolvedValueOnce(json({ remote_mail: '/remotes/remote-mail/mf-manifest.json' }));
    await loadRemotes();
    await loadRemotes(); // nothing failed: not read again
    expect(globalThis.fetch).toHaveBeenCalledTimes(1);
    plugin().errorLoadRemote(); // the MF runtime could not load the remote
    await expect(loadRemotes()).resolves.toMatchObject({ status: 'ready' });
    expect(globalThis.fetch).toHaveBeenCalledTimes(2);
    expect(registerRemotes).toHaveBeenLastCalledWith(
      [{ name: 'remote_mail', entry: 'http://localhost/remotes/remote-mail/mf-manifest.json' }],
      { force: true },
    );
  });

  it('the runtime plugin gives a remote manifest REMOTES_TIMEOUT_MS', async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json({}));
    await loadRemotes();
    jest.useFakeTimers();
    jest.spyOn(globalThis, 'fetch').mockImplementation(never as typeof fetch);
    const manifest = plugin().fetch('http://hung.example/mf-manifest.json', {});
    const outcome = manifest.catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(REMOTES_TIMEOUT_MS + 10);
    expect(String(await outcome)).toContain('no answer within 15 s');
  });

  it('fetchWithin passes the answer through', async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValueOnce(json({ ok: true }));
    await expect((await fetchWithin('/x')).json()).resolves.toEqual({ ok: true });
  });
});
