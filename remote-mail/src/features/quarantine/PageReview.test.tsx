/** Issue 23: the list as a reviewer meets it (subtitle per role, columns, score range, phone bulk bar, sort, count). */
import { useSession } from '@qc/auth';
import type { CurrentUser } from '@qc/contracts';
import { i18next } from '@qc/i18n';
import { DEFAULT_PREFERENCES, usePreferences } from '@qc/ui-state';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  jsonResponse,
  listItem,
  mockApi,
  onPhoneScreen,
  renderQuarantine,
  type ApiCall,
} from '../../test-utils';

const listCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/quarantine/');
const lastQuery = (calls: ApiCall[]) => Object.fromEntries(listCalls(calls).at(-1)!.query);
const rows = () => screen.queryAllByTestId('quarantine-row');

const SESSION_USER: CurrentUser = {
  id: 'u1',
  username: 'jane',
  email: 'jane@example.com',
  first_name: '',
  last_name: '',
  role: 'user',
  domain: null,
  is_external: false,
  source: 'local',
  addresses: ['jane@example.com'],
  mfa_enabled: false,
  date_joined: '2026-01-01T00:00:00Z',
  pending_email: null,
};
const as = (role: CurrentUser['role']) => useSession.setState({ user: { ...SESSION_USER, role } });
const user = () => userEvent.setup({ delay: null });

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
});
afterEach(() => act(() => useSession.setState({ user: null })));

const many = listItem({ id: 'm2', recipients: ['a@example.com', 'b@example.com', 'c@example.com'] });

describe('who sees what', () => {
  it('the subtitle says whose mail is listed: a user’s, their domain’s, or all of it (French and English)', async () => {
    mockApi(() => jsonResponse(200, { results: [listItem()], next_cursor: null }));
    const cases: [CurrentUser['role'], string, string][] = [
      ['user', 'Les e-mails retenus par le filtre anti-spam qui vous sont adressés.', 'E-mail addressed to you'],
      ['domain_admin', 'Les e-mails de votre domaine retenus par le filtre anti-spam.', 'E-mail of your domain'],
      ['admin', 'Tous les e-mails en quarantaine, retenus par le filtre anti-spam.', 'All quarantined mail'],
    ];
    for (const [role, fr, en] of cases) {
      as(role);
      const { unmount } = renderQuarantine();
      expect(await screen.findByText(fr)).toBeInTheDocument();
      await act(() => i18next.changeLanguage('en'));
      try {
        expect(screen.getByText(new RegExp(`^${en}`))).toBeInTheDocument();
      } finally {
        await act(() => i18next.changeLanguage('fr'));
      }
      unmount();
    }
  }, 30_000);

  it('a user has no recipients shown (always their own address); an admin has them under the sender, "+N" never cut', async () => {
    mockApi(() => jsonResponse(200, { results: [listItem(), many], next_cursor: null }));
    as('user');
    const first = renderQuarantine();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const headers = () =>
      within(screen.getByTestId('quarantine-table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent);
    expect(headers()).toContain('Expéditeur');
    expect(screen.queryByTestId('quarantine-recipients')).not.toBeInTheDocument();
    expect(rows()[1]).not.toHaveTextContent('a@example.com');
    expect(screen.queryByTestId('quarantine-more-recipients')).not.toBeInTheDocument();
    first.unmount();

    as('admin');
    renderQuarantine();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(headers()).toContain('Expéditeur / destinataires');
    const tag = within(rows()[1]!).getByTestId('quarantine-more-recipients');
    expect(tag).toHaveTextContent('+2');
    // The address is what gets an ellipsis; the tag is beside it, not inside it, and does not shrink.
    const address = within(rows()[1]!).getByText('a@example.com');
    expect(address).toHaveStyle({ textOverflow: 'ellipsis' });
    expect(address).not.toContainElement(tag);
    expect(tag).toHaveStyle({ flex: 'none' });
    // The subject is the one column without a fixed width: it gets what the others leave.
    const widths = [...screen.getByTestId('quarantine-table').querySelectorAll('table colgroup col')].map(
      (c) => (c as HTMLElement).style.width,
    );
    // (antd sizes the selection column by its class.)
    expect(widths.slice(1).filter((w) => !w)).toHaveLength(1);
    expect(widths[3]).toBe(''); // selection, date, sender/recipients, subject
  }, 30_000);
});

describe('score range', () => {
  it('min. above max.: both fields are marked invalid with the reason, and no (empty) list is asked for', async () => {
    as('admin');
    const { calls } = mockApi(() => jsonResponse(200, { results: [listItem()], next_cursor: null }));
    renderQuarantine('/mail?score_min=15&score_max=5');
    const min = await screen.findByLabelText('Score min.');
    const max = screen.getByLabelText('Score max.');
    expect(min).toHaveValue('15,0');
    expect(max).toHaveValue('5,0');
    for (const field of [min, max]) {
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription('Le score min. doit être inférieur ou égal au score max.');
    }
    expect(screen.getByTestId('quarantine-score-reversed')).toBeInTheDocument();
    expect(screen.queryByText('Aucun e-mail ne correspond à ces filtres.')).not.toBeInTheDocument();
    expect(listCalls(calls)).toHaveLength(0);

    // Corrected: the error goes and the list is asked for.
    await user().clear(max);
    await user().type(max, '20{Enter}');
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ score_min: '15', score_max: '20' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByLabelText('Score min.')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByTestId('quarantine-score-error')).not.toBeInTheDocument();
  }, 30_000);
});

describe('phone', () => {
  it('once rows are selected, Release and Delete are in a bar stuck to the bottom of the screen', async () => {
    const restore = onPhoneScreen();
    try {
      as('admin');
      mockApi(() => jsonResponse(200, { results: [listItem(), many], next_cursor: null }));
      renderQuarantine();
      await waitFor(() => expect(rows()).toHaveLength(2));
      expect(screen.queryByTestId('quarantine-bulk-bar')).not.toBeInTheDocument();
      await user().click(within(rows()[0]!).getByRole('checkbox'));
      const bar = await screen.findByTestId('quarantine-bulk-bar');
      expect(bar).toHaveStyle({ position: 'sticky', bottom: '0px' });
      expect(within(bar).getByTestId('quarantine-bulk-release')).toHaveTextContent('Libérer (1)');
      expect(within(bar).getByTestId('quarantine-bulk-delete')).toBeEnabled();
      // One group of buttons only (not a copy left in the header).
      expect(screen.getAllByTestId('quarantine-bulk')).toHaveLength(1);
    } finally {
      restore();
    }
  }, 30_000);
});

describe('sort and count', () => {
  it('the headers sort on the server (mouse and keyboard); the sort is in the URL; the count says if it is exact', async () => {
    as('admin');
    const { calls } = mockApi((call) =>
      jsonResponse(200, {
        results: [listItem(), many],
        next_cursor: 'c2',
        ...(call.query.get('cursor')
          ? {}
          : { total: { count: call.query.get('sort') ? 1000 : 2, exact: !call.query.get('sort') } }),
      }),
    );
    renderQuarantine();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByTestId('quarantine-total').textContent).toBe('2\u00a0e-mails');
    const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Date')).toHaveAttribute('aria-sort', 'descending');

    await user().click(header('Score'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ sort: 'score' }));
    expect(lastQuery(calls).order).toBeUndefined(); // highest first: the default order
    expect(currentLocation()).toBe('/mail?sort=score');
    await waitFor(() => expect(header('Score')).toHaveAttribute('aria-sort', 'descending'));
    expect(header('Date')).not.toHaveAttribute('aria-sort');
    await waitFor(() =>
      expect(screen.getByTestId('quarantine-total').textContent).toBe(
        'Plus de 1\u202f000\u00a0e-mails (compte arrêté là)',
      ),
    );

    // The keyboard: the header is a tab stop, Enter turns the order round.
    act(() => header('Score').focus());
    expect(header('Score')).toHaveFocus();
    expect(header('Score')).toHaveAttribute('tabindex', '0');
    // antd reads keyCode, which user-event leaves at 0 (a browser sets 13).
    fireEvent.keyDown(header('Score'), { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ sort: 'score', order: 'asc' }));
    expect(currentLocation()).toBe('/mail?sort=score&order=asc');

    // The next page keeps the sort, and the count the first page brought.
    await user().click(screen.getByTestId('quarantine-next'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ sort: 'score', order: 'asc', cursor: 'c2' }));
    expect(screen.getByTestId('quarantine-total')).toHaveTextContent(/^Plus de 1\s000/);

    await user().click(header('Taille'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ sort: 'size' }));
    expect(lastQuery(calls).cursor).toBeUndefined();
    // "Reset" is for filters: it does not show for a sort alone.
    expect(screen.queryByTestId('quarantine-filters-reset')).not.toBeInTheDocument();
  }, 30_000);
});
