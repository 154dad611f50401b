import { resetSessionForTests } from '@qc/auth';
import { NARROW_QUERY, PHONE_QUERY } from '@qc/ui';
import { notify, useNotices } from '@qc/ui-state';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithTheme, signIn } from '../../test-utils';
import NotificationHost from './NotificationHost';

beforeEach(() => useNotices.getState().clear());

describe('NotificationHost (spec §8)', () => {
  it('renders the bus bottom-left: at most 3, no duplicates, each with a close button', async () => {
    renderWithTheme(<NotificationHost />);
    act(() => {
      notify({ type: 'info', title: 'Premier' });
      notify({ type: 'info', title: 'Premier' });
      notify({ type: 'success', title: 'Deuxième' });
      notify({ type: 'error', title: 'Troisième' });
      notify({ type: 'warning', title: 'Quatrième' });
    });
    await waitFor(() =>
      expect(screen.getAllByTestId('notice').map((n) => n.textContent)).toEqual(['Deuxième', 'Troisième', 'Quatrième']),
    );
    expect(document.querySelector('.ant-notification-bottomLeft')).not.toBeNull();
    await userEvent.setup().click(screen.getAllByRole('button', { name: 'Fermer' })[0]!);
    await waitFor(() => expect(useNotices.getState().notices.map((n) => n.title)).toEqual(['Troisième', 'Quatrième']));
  });
});

describe('NotificationHost on a phone (390 px, issue 23)', () => {
  const matchMedia = window.matchMedia;
  beforeEach(() => {
    resetSessionForTests();
    window.matchMedia = ((query: string) => ({
      ...matchMedia(query),
      matches: query === PHONE_QUERY || query === NARROW_QUERY,
    })) as typeof window.matchMedia;
  });
  afterEach(() => {
    window.matchMedia = matchMedia;
    resetSessionForTests();
  });

  it('without a session (/login) the notices sit at the top, clear of the submit button and "Forgot password?"', async () => {
    renderWithTheme(<NotificationHost />);
    act(() => {
      notify({ type: 'warning', title: 'Session expirée' });
      notify({ type: 'error', title: 'Identifiants invalides' });
    });
    await waitFor(() => expect(screen.getAllByTestId('notice')).toHaveLength(2));
    const stack = document.querySelector<HTMLElement>('.ant-notification-top');
    expect(stack).not.toBeNull();
    expect(stack).toContainElement(screen.getAllByTestId('notice')[1]!);
    expect(stack!.style.getPropertyValue('--notification-top')).toBe('8px'); // over the top bar
    expect(document.querySelector('.ant-notification-bottomLeft')).toBeNull();
  });

  it('signed in, they stay bottom-left, lifted above the feedback button', async () => {
    signIn();
    renderWithTheme(<NotificationHost />);
    act(() => {
      notify({ type: 'success', title: 'Libéré' });
    });
    await screen.findByTestId('notice');
    const stack = document.querySelector<HTMLElement>('.ant-notification-bottomLeft');
    expect(stack).toContainElement(screen.getByTestId('notice'));
    expect(stack!.style.getPropertyValue('--notification-bottom')).toBe('80px');
    expect(document.querySelector('.ant-notification-top')).toBeNull();
  });
});
