import { resetSessionForTests } from '@qc/auth';
import type { FeedbackItem } from '@qc/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderPage, signIn, USER } from '../../test-utils';
import FeedbackAdminPage from './Page';

const ADMIN = { ...USER, id: 'a1', username: 'admin', email: 'admin@example.com', role: 'admin' as const };

const item = (id: string, extra: Partial<FeedbackItem> = {}): FeedbackItem => ({
  id,
  type: 'bug',
  message: `Message ${id}`,
  email: null,
  user: { id: 'u1', email: 'jane@example.com', username: 'jane.doe' },
  created_at: '2026-03-04T10:20:00Z',
  images: [],
  ...extra,
});

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  jest.restoreAllMocks();
  signIn(ADMIN);
});

describe('/feedback (admin): the feedback received', () => {
  it('lists type, message, author, contact and date; images are fetched with the Authorization header, shown as data: URLs', async () => {
    const { calls } = mockApi((c) => {
      if (c.path === '/api/feedback/')
        return jsonResponse(200, {
          results: [
            item('f2', {
              type: 'suggestion',
              message: 'Line one\n<b>not bold</b>',
              email: 'reporter@example.com',
              images: [{ id: 'i1', mime: 'image/png', size: 4, url: '/api/feedback/f2/images/i1/' }],
            }),
            item('f1', { user: null }),
          ],
          next_cursor: null,
        });
      if (c.path === '/api/feedback/f2/images/i1/')
        return new Response(new Uint8Array([137, 80, 78, 71]), {
          status: 200,
          headers: { 'Content-Type': 'image/png' },
        });
      return jsonResponse(404, { detail: 'nf', code: 'not_found' });
    });
    renderPage(<FeedbackAdminPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Avis' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Avis reçus' });
    const [first, second] = within(list).getAllByTestId('feedback-item');
    expect(within(first!).getByText('Suggestion')).toBeInTheDocument();
    expect(within(first!).getByTestId('feedback-item-message').textContent).toBe('Line one\n<b>not bold</b>');
    expect(within(first!).getByText('jane.doe <jane@example.com>')).toBeInTheDocument();
    expect(within(first!).getByText('reporter@example.com')).toBeInTheDocument();
    expect(within(first!).getByText(/2026/)).toBeInTheDocument();
    expect(within(second!).getByText('Bug')).toBeInTheDocument();
    expect(within(second!).getByText('compte supprimé')).toBeInTheDocument();
    expect(within(second!).getByText('aucun')).toBeInTheDocument();

    const img = await within(first!).findByRole('img', { name: 'Capture 1 de l’avis' });
    // The CSP allows data: images, not blob: ones; the type is the one the API sniffed.
    expect(img).toHaveAttribute('src', 'data:image/png;base64,iVBORw==');
    const imageCall = calls.find((c) => c.path === '/api/feedback/f2/images/i1/')!;
    expect(imageCall.authorization).toMatch(/^Bearer /);
    expect(imageCall.search).toBe('');
    expect(screen.getByTestId('feedback-all-loaded')).toBeInTheDocument();
  });

  it('"Load more" follows the keyset cursor', async () => {
    const { calls } = mockApi((c) =>
      c.search === '?cursor=c2'
        ? jsonResponse(200, { results: [item('f1')], next_cursor: null })
        : jsonResponse(200, { results: [item('f3'), item('f2')], next_cursor: 'c2' }),
    );
    renderPage(<FeedbackAdminPage />);
    await screen.findByText('Message f3');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Charger plus' }));
    expect(await screen.findByText('Message f1')).toBeInTheDocument();
    expect(screen.getAllByTestId('feedback-item')).toHaveLength(3);
    expect(calls.map((c) => `${c.path}${c.search}`)).toEqual(['/api/feedback/', '/api/feedback/?cursor=c2']);
    expect(screen.queryByRole('button', { name: 'Charger plus' })).not.toBeInTheDocument();
  });

  it('empty, and error with Retry', async () => {
    let fail = true;
    mockApi(() =>
      fail
        ? jsonResponse(503, { detail: 'down', code: 'unavailable' })
        : jsonResponse(200, { results: [], next_cursor: null }),
    );
    renderPage(<FeedbackAdminPage />);
    expect(await screen.findByText('Erreur lors du chargement des avis')).toBeInTheDocument();
    expect(
      screen.getByText('Le service est momentanément indisponible. Réessayez dans quelques instants.'),
    ).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('Aucun avis pour le moment')).toBeInTheDocument();
  });

  it('an image that cannot be fetched shows a placeholder', async () => {
    mockApi((c) =>
      c.path === '/api/feedback/'
        ? jsonResponse(200, {
            results: [
              item('f1', { images: [{ id: 'i9', mime: 'image/png', size: 4, url: '/api/feedback/f1/images/i9/' }] }),
            ],
            next_cursor: null,
          })
        : jsonResponse(404, { detail: 'nf', code: 'not_found' }),
    );
    renderPage(<FeedbackAdminPage />);
    expect(await screen.findByTestId('feedback-image-error')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Capture 1 de l’avis' })).not.toBeInTheDocument();
  });
});
