import { DEFAULT_PREFERENCES, usePreferences, useTheme } from '@qc/ui-state';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithTheme } from '../../test-utils';
import { ThemeToggle } from './ThemeToggle';

beforeEach(() => {
  localStorage.clear();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
});

describe('theme toggle (spec §4)', () => {
  it('light → dark: saves userPreferences and reloads the page', async () => {
    useTheme.getState().setMode('light');
    const reload = jest.fn();
    renderWithTheme(<ThemeToggle onReload={reload} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Activer le thème sombre' }));
    // Unsynced: the account gets this choice at the next sign-in instead of replacing it.
    expect(JSON.parse(localStorage.getItem('userPreferences')!)).toEqual({
      themeMode: 'dark',
      defaultPageSize: 50,
      unsynced: ['themeMode'],
    });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('system → light', async () => {
    useTheme.getState().setMode('system');
    usePreferences.setState({ preferences: { themeMode: 'system', defaultPageSize: 20 } });
    const reload = jest.fn();
    renderWithTheme(<ThemeToggle onReload={reload} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Activer le thème clair' }));
    expect(JSON.parse(localStorage.getItem('userPreferences')!)).toEqual({
      themeMode: 'light',
      defaultPageSize: 20,
      unsynced: ['themeMode'],
    });
    expect(reload).toHaveBeenCalled();
  });
});

describe('theme toggle in the signed-in shell', () => {
  it('copies the saved preferences to the account before reloading, and reloads even if that fails', async () => {
    useTheme.getState().setMode('light');
    const order: string[] = [];
    const onSaved = jest.fn(async (p: unknown) => {
      order.push(`saved ${JSON.stringify(p)}`);
      throw new Error('offline');
    });
    renderWithTheme(<ThemeToggle onReload={() => order.push('reload')} onSaved={onSaved} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Activer le thème sombre' }));
    await waitFor(() =>
      expect(order).toEqual(['saved {"themeMode":"dark","defaultPageSize":50,"unsynced":["themeMode"]}', 'reload']),
    );
  });
});
