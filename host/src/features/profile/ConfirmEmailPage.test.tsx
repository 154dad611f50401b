import { resetSessionForTests, useSession } from '@qc/auth';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderPage, routesOf, signIn, USER } from '../../test-utils';
import ConfirmEmailPage from './ConfirmEmailPage';

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  jest.restoreAllMocks();
});

describe('/profile/confirm-email?token=… (DESIGN §4, §7: a GET changes nothing, the POST does)', () => {
  it('opening the link sends nothing; "Confirmer" POSTs the token and says the new address', async () => {
    signIn();
    const { calls } = mockApi(() => jsonResponse(200, { ...USER, email: 'new@example.com', pending_email: null }));
    renderPage(<ConfirmEmailPage />, { path: '/profile/confirm-email?token=tok-123' });
    expect(screen.getByRole('heading', { level: 1, name: 'Confirmer la nouvelle adresse e-mail' })).toBeInTheDocument();
    expect(screen.getByText(/Votre adresse n’a pas encore changé/)).toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirmer' }));
    expect(await screen.findByText('Votre adresse e-mail est désormais new@example.com.')).toBeInTheDocument();
    expect(routesOf(calls)).toEqual(['POST /api/users/me/email/confirm/']);
    expect(calls[0]!.body).toEqual({ token: 'tok-123' });
    expect(useSession.getState().user).toEqual({ ...USER, email: 'new@example.com' });
  });

  it('an expired link says so', async () => {
    signIn();
    mockApi(() =>
      jsonResponse(400, {
        detail: 'expired',
        code: 'email_change_expired',
        errors: { token: 'This confirmation link has expired.' },
      }),
    );
    renderPage(<ConfirmEmailPage />, { path: '/profile/confirm-email?token=old' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirmer' }));
    expect(await screen.findByText(/Ce lien de confirmation a expiré/)).toBeInTheDocument();
    await waitFor(() => expect(useSession.getState().user).toEqual(USER));
  });

  it('without a token: nothing to confirm', () => {
    signIn();
    const { calls } = mockApi(() => jsonResponse(500));
    renderPage(<ConfirmEmailPage />, { path: '/profile/confirm-email' });
    expect(screen.getByText(/Ce lien de confirmation est incomplet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirmer' })).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
