import { resetSessionForTests } from '@qc/auth';
import { DEFAULT_PREFERENCES, useNotices, usePreferences, useTheme } from '@qc/ui-state';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderPage, signIn } from '../../test-utils';
import SettingsPage, { SETTINGS_SECTIONS } from './Page';
import { useAccountPreferences } from './settings.queries';

// The preferences alone: the lists section has its own tests (features/lists) and its own calls.
const PREFERENCES_ONLY = SETTINGS_SECTIONS.filter((s) => s.id === 'preferences');

const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);
const stored = () => JSON.parse(localStorage.getItem('userPreferences') ?? 'null') as unknown;
const radio = (name: RegExp | string) => screen.getByRole('radio', { name });
/** antd's radio input is visually hidden: the user clicks its label. */
const choose = (user: ReturnType<typeof userEvent.setup>, name: RegExp | string) =>
  user.click(radio(name).closest('label')!);

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
  useTheme.getState().setMode('light');
  jest.restoreAllMocks();
});

describe('/settings: preferences (spec §3, §8)', () => {
  it('is the home of the settings sections: Preferences, quarantine notifications, then the lists', async () => {
    expect(SETTINGS_SECTIONS.map((s) => s.id)).toEqual(['preferences', 'notifications', 'lists']);
    signIn();
    mockApi(() => jsonResponse(200, { theme_mode: 'light', default_page_size: 50, updated_at: null }));
    renderPage(<SettingsPage sections={PREFERENCES_ONLY} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Paramètres' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Préférences' })).toBeInTheDocument();
    await waitFor(() => expect(radio(/Clair/)).toBeChecked());
    expect(radio('50')).toBeChecked();
  });

  it('on load, the account copy is merged over the local one and applied (theme at once)', async () => {
    signIn();
    const { calls } = mockApi(() =>
      jsonResponse(200, { theme_mode: 'dark', default_page_size: 100, updated_at: '2026-11-20T09:00:00.000Z' }),
    );
    renderPage(<SettingsPage sections={PREFERENCES_ONLY} />);
    await waitFor(() => expect(useTheme.getState().mode).toBe('dark'));
    expect(stored()).toEqual({ themeMode: 'dark', defaultPageSize: 100 });
    await waitFor(() => expect(radio(/Sombre/)).toBeChecked());
    expect(radio('100')).toBeChecked();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/users/me/preferences/']);
    expect(calls[0]!.authorization).toMatch(/^Bearer /);
  });

  it('saves to localStorage AND to the account, applies the theme, says "Preferences saved successfully"', async () => {
    signIn();
    const { calls } = mockApi((c) =>
      c.method === 'PUT'
        ? jsonResponse(200, c.body)
        : jsonResponse(200, { theme_mode: 'light', default_page_size: 50, updated_at: null }),
    );
    renderPage(<SettingsPage sections={PREFERENCES_ONLY} />);
    const user = userEvent.setup();
    await waitFor(() => expect(calls).toHaveLength(1));
    await choose(user, /Système/);
    await choose(user, '20');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['success:Préférences enregistrées avec succès']));
    expect(stored()).toEqual({ themeMode: 'system', defaultPageSize: 20 });
    expect(useTheme.getState().mode).toBe('system');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('/api/users/me/preferences/');
    expect(put.body).toEqual({ theme_mode: 'system', default_page_size: 20 });
  });

  it('a choice the account has not had yet (a theme picked on /login) wins over its older copy, and is sent up', async () => {
    signIn();
    usePreferences.getState().save({ themeMode: 'dark', unsynced: ['themeMode'] });
    const saved = { theme_mode: 'light', default_page_size: 100, updated_at: '2026-11-20T09:00:00.000Z' };
    const { calls } = mockApi((c) =>
      c.method === 'PUT'
        ? jsonResponse(200, { ...(c.body as object), updated_at: '2026-11-22T09:00:00.000Z' })
        : jsonResponse(200, saved),
    );
    // The signed-in shell syncs on sign-in (ProtectedLayout); the page then shows the result.
    function SignedInSettings() {
      useAccountPreferences();
      return <SettingsPage sections={PREFERENCES_ONLY} />;
    }
    renderPage(<SignedInSettings />);
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ theme_mode: 'dark', default_page_size: 100 }),
    );
    // Only the theme was chosen here: the account's page size stays.
    await waitFor(() => expect(stored()).toEqual({ themeMode: 'dark', defaultPageSize: 100 }));
    expect(useTheme.getState().mode).toBe('dark');
    expect(radio(/Sombre/)).toBeChecked();
  });

  it('the account cannot be reached: kept locally, "Error synchronizing with server"', async () => {
    signIn();
    mockApi((c) =>
      c.method === 'PUT'
        ? jsonResponse(503, { detail: 'down', code: 'unavailable' })
        : jsonResponse(200, { theme_mode: 'light', default_page_size: 50, updated_at: null }),
    );
    renderPage(<SettingsPage sections={PREFERENCES_ONLY} />);
    const user = userEvent.setup();
    await choose(user, /Sombre/);
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['warning:Erreur de synchronisation avec le serveur']));
    // Kept as unsynced: the next sign-in sends it up rather than taking the account's older copy.
    expect(stored()).toEqual({ themeMode: 'dark', defaultPageSize: 50, unsynced: ['themeMode', 'defaultPageSize'] });
    expect(useTheme.getState().mode).toBe('dark');
  });

  it('saved neither locally nor on the account: "Error saving preferences"', async () => {
    signIn();
    mockApi((c) =>
      c.method === 'PUT'
        ? jsonResponse(500)
        : jsonResponse(200, { theme_mode: 'light', default_page_size: 50, updated_at: null }),
    );
    renderPage(<SettingsPage sections={PREFERENCES_ONLY} />);
    const user = userEvent.setup();
    await choose(user, '200');
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['error:Erreur lors de l’enregistrement des préférences']));
  });

  it('leaving with choices not saved asks first: Stay keeps them, Leave goes', async () => {
    signIn();
    mockApi(() => jsonResponse(200, { theme_mode: 'light', default_page_size: 50, updated_at: null }));
    const { router } = renderPage(<SettingsPage sections={PREFERENCES_ONLY} />, { path: '/settings' });
    const user = userEvent.setup();
    await waitFor(() => expect(radio(/Clair/)).toBeChecked());
    // Untouched: nothing to ask.
    await router.navigate('/dashboard');
    expect(router.state.location.pathname).toBe('/dashboard');
    await router.navigate('/settings');
    await waitFor(() => expect(radio(/Clair/)).toBeChecked());

    await choose(user, /Sombre/);
    expect(await screen.findByText('Modifications non enregistrées')).toBeInTheDocument();
    void router.navigate('/dashboard');
    const dialog = await screen.findByRole('dialog', { name: 'Quitter sans enregistrer\u202f?' });
    expect(dialog).toHaveTextContent('seront perdues');
    await user.click(screen.getByRole('button', { name: 'Rester' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(radio(/Sombre/)).toBeChecked();

    void router.navigate('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Quitter sans enregistrer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(stored()).toBeNull(); // nothing was saved on the way out
  });

  it('a theme chosen in the top bar shows in the form too, not as a change waiting to be saved', async () => {
    signIn();
    mockApi(() => jsonResponse(200, { theme_mode: 'light', default_page_size: 50, updated_at: null }));
    renderPage(<SettingsPage sections={PREFERENCES_ONLY} />);
    await waitFor(() => expect(radio(/Clair/)).toBeChecked());
    act(() => void usePreferences.getState().save({ themeMode: 'dark', defaultPageSize: 50 }));
    await waitFor(() => expect(radio(/Sombre/)).toBeChecked());
    expect(screen.queryByTestId('preferences-unsaved')).toBeNull();
    // Also while another field is being edited: only that one is the user's until saved.
    await choose(userEvent.setup(), '10');
    act(() => void usePreferences.getState().save({ themeMode: 'light', defaultPageSize: 50 }));
    await waitFor(() => expect(radio(/Clair/)).toBeChecked());
    expect(radio('10')).toBeChecked();
  });

  it('the account copy cannot be read on load: "Error synchronizing with server", local values shown', async () => {
    signIn();
    usePreferences.getState().save({ themeMode: 'dark', defaultPageSize: 10 });
    mockApi(() => jsonResponse(500, { detail: 'boom', code: 'internal_error' }));
    renderPage(<SettingsPage sections={PREFERENCES_ONLY} />);
    await waitFor(() => expect(noticeTitles()).toEqual(['warning:Erreur de synchronisation avec le serveur']));
    expect(radio(/Sombre/)).toBeChecked();
    expect(radio('10')).toBeChecked();
  });
});
