import { retryableLazy } from '@qc/ui';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { renderWithTheme } from '../test-utils';
import { LoadBoundary } from './LoadBoundary';

describe('LoadBoundary (above the host’s own chunks)', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => jest.restoreAllMocks());

  it('a chunk that failed to download shows why with Retry, not a blank page; Retry downloads it again', async () => {
    let attempts = 0;
    const Chunk = retryableLazy(async () => {
      if (++attempts === 1) throw Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' });
      return { default: () => <p>the shell</p> };
    });
    renderWithTheme(
      <LoadBoundary>
        <Suspense fallback={null}>
          <Chunk />
        </Suspense>
      </LoadBoundary>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Impossible de contacter le serveur');
    // retryableLazy tries a failed import again only a moment later (not in React's immediate re-render).
    await new Promise((resolve) => setTimeout(resolve, 600));
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('the shell', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(attempts).toBe(2);
  });
});
