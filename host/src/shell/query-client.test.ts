import { resetSessionForTests, useSession } from '@qc/auth';
import { signIn, USER } from '../test-utils';
import { clearOnSessionChange, createQueryClient } from './query-client';

let stop: () => void = () => {};
afterEach(() => stop());

function cachedClient() {
  const client = createQueryClient();
  stop = clearOnSessionChange(client);
  client.setQueryData(['me'], USER);
  client.setQueryData(['quarantine', 'list'], { results: [{ subject: 'the last user’s mail' }] });
  return client;
}

describe('the query cache follows the session', () => {
  beforeEach(() => {
    localStorage.clear();
    resetSessionForTests();
  });

  it.each([
    ['a refused refresh', () => useSession.getState().expireSession()],
    ['a sign-out in another tab', () => useSession.setState({ isAuthenticated: false, user: null })],
  ])('%s empties it: the next user sees nothing of the last one', (_, end) => {
    signIn();
    const client = cachedClient();
    end();
    expect(client.getQueryData(['me'])).toBeUndefined();
    expect(client.getQueryData(['quarantine', 'list'])).toBeUndefined();
  });

  it('another user in the session empties it; the same user refreshed keeps it', () => {
    signIn();
    const client = cachedClient();
    useSession.getState().setUser({ ...USER, username: 'renamed' });
    expect(client.getQueryData(['me'])).toEqual(USER);
    useSession.getState().setUser({ ...USER, id: 'someone-else' });
    expect(client.getQueryData(['me'])).toBeUndefined();
  });
});
