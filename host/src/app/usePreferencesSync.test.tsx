import { resetSessionForTests, useSession } from '@qc/auth';
import { DEFAULT_PREFERENCES, usePreferences } from '@qc/ui-state';
import { act, renderHook } from '@testing-library/react';
import { USER } from '../test-utils';
import { usePreferencesSync } from './usePreferencesSync';

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
});

const signedIn = (user: typeof USER | null) =>
  act(() => useSession.setState({ user, isAuthenticated: user !== null, isLoading: false }));

describe('usePreferencesSync', () => {
  it('a choice made on /login is kept through the sign-in, so it can be sent up', () => {
    renderHook(() => usePreferencesSync());
    act(() => void usePreferences.getState().save({ themeMode: 'dark', unsynced: ['themeMode'] }));
    signedIn(USER);
    expect(usePreferences.getState().preferences).toMatchObject({ themeMode: 'dark', unsynced: ['themeMode'] });
  });

  it('signing out forgets the choices the account did not get: the next user did not make them', () => {
    signedIn(USER);
    renderHook(() => usePreferencesSync());
    act(() => void usePreferences.getState().save({ themeMode: 'dark', unsynced: ['themeMode'] }));
    signedIn(null);
    expect(usePreferences.getState().preferences.unsynced).toBeUndefined();
    // The theme itself stays this browser's (spec §3: local storage).
    expect(usePreferences.getState().preferences.themeMode).toBe('dark');
  });
});
