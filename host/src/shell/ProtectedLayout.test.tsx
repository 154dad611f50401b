import { resetSessionForTests } from '@qc/auth';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { registerShellStrings } from '../i18n/shell';
import { jsonResponse, mockApi, signIn, USER } from '../test-utils';
import { ProtectedLayout } from './ProtectedLayout';

jest.setTimeout(20_000);

function renderShell(path: string) {
  registerShellStrings();
  const router = createMemoryRouter(
    [{ path: '/', element: <ProtectedLayout />, children: [{ path: '*', element: <p>page content</p> }] }],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  jest.restoreAllMocks();
});

describe('protected layout (spec §2)', () => {
  it.each(['/dashboard', '/settings', '/no/such/page'])('%s has the floating feedback button', async (path) => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell(path);
    const button = await screen.findByRole('button', { name: 'Envoyer un avis' });
    expect(button).toHaveAttribute('data-testid', 'feedback-button');
    await userEvent.setup().click(button);
    expect(await screen.findByRole('dialog', { name: 'Envoyer un avis' })).toBeInTheDocument();
    // Every page ends with room for it: scrolled to the end, nothing stays under the button.
    expect(screen.getByTestId('content')).toHaveStyle({ paddingBottom: '48px' });
  });

  it('the admin feedback page is in the drawer of an admin only', async () => {
    signIn({ ...USER, role: 'admin' });
    mockApi(() => jsonResponse(200, { ...USER, role: 'admin' }));
    renderShell('/dashboard');
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(await within(nav).findByRole('link', { name: 'Avis' })).toHaveAttribute('href', '/feedback');
  });

  it.each([
    ['/history', 'Historique · Quarantine Console'],
    ['/no/such/page', 'Page introuvable · Quarantine Console'],
  ])('the tab title names the page, or says it was not found: %s', async (path, title) => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell(path);
    await screen.findByRole('navigation', { name: 'Navigation principale' });
    expect(document.title).toBe(title);
  });

  it('going to another page puts the focus on its content (not on a link that is gone, nor nowhere)', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell('/dashboard');
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(screen.getByTestId('content')).not.toHaveFocus();
    await userEvent.setup().click(await within(nav).findByRole('link', { name: 'Historique' }));
    await waitFor(() => expect(screen.getByTestId('content')).toHaveFocus());
  });

  it('the profile menu button says it opens a menu, and whether it is open', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell('/dashboard');
    const button = screen.getByTestId('profile-menu');
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.setup().click(button);
    expect(await screen.findByRole('menuitem', { name: /Se déconnecter/ })).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('a user does not see it', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell('/dashboard');
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(await within(nav).findByRole('link', { name: 'Paramètres' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Avis' })).not.toBeInTheDocument();
  });
});
