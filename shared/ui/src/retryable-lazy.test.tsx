import { initI18n } from '@qc/i18n';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, type ComponentType } from 'react';
import { isLoadFailure, RemoteModule } from './RemoteBoundary';
import { RETRY_AFTER_MS, retryableLazy } from './retryable-lazy';

beforeAll(() => initI18n());
beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

function chunkLoadError(): Error {
  const e = new Error('Loading chunk 312 failed.\n(error: http://localhost/remotes/remote-mail/312.js)');
  e.name = 'ChunkLoadError';
  return e;
}

const Detail: ComponentType<{ id: string }> = ({ id }) => <p>detail {id}</p>;

describe('retryableLazy + the remote boundary', () => {
  it('a chunk that failed to load is "did not load" (not a rendering error), and Retry imports it again', async () => {
    let attempts = 0;
    const LazyDetail = retryableLazy(async () => {
      attempts += 1;
      if (attempts === 1) throw chunkLoadError();
      return { default: Detail };
    });
    // The remote's page: a module-level lazy inside, as remote-mail's routes have.
    const RemotePage: ComponentType = () => (
      <Suspense fallback={<p>loading detail</p>}>
        <LazyDetail id="42" />
      </Suspense>
    );
    render(
      <RemoteModule id="remote_mail/Quarantine" name="Quarantaine" load={async () => ({ default: RemotePage })} />,
    );
    const failure = await screen.findByTestId('remote-load-error');
    expect(failure).toHaveTextContent('Vérifiez votre connexion');
    expect(screen.queryByTestId('remote-render-error')).toBeNull();
    expect(attempts).toBe(1); // React's recovery render did not start a loop of imports

    const later = Date.now() + RETRY_AFTER_MS + 1;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('detail 42')).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('a successful import is kept: later renders do not import again', async () => {
    const load = jest.fn(async () => ({ default: Detail }));
    const LazyDetail = retryableLazy(load);
    const { unmount } = render(
      <Suspense fallback={null}>
        <LazyDetail id="1" />
      </Suspense>,
    );
    expect(await screen.findByText('detail 1')).toBeInTheDocument();
    unmount();
    render(<LazyDetail id="2" />); // no Suspense needed: already resolved
    expect(screen.getByText('detail 2')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('isLoadFailure', () => {
  it('tells code that did not arrive from code that threw', () => {
    expect(isLoadFailure(chunkLoadError())).toBe(true);
    expect(isLoadFailure(new TypeError('Failed to fetch dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isLoadFailure(new Error('Loading CSS chunk 7 failed.'))).toBe(true);
    expect(isLoadFailure(new Error('[ Federation Runtime ]: Failed to get manifest. #RUNTIME-003'))).toBe(true);
    expect(isLoadFailure(new Error('wrapped', { cause: chunkLoadError() }))).toBe(true);
    expect(isLoadFailure(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isLoadFailure('Loading chunk 1 failed')).toBe(false);
  });
});
