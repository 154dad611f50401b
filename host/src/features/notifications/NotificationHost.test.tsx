import { notify, useNotices } from '@qc/ui-state';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithTheme } from '../../test-utils';
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
