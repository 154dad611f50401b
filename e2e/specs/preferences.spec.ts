import type { Page } from '@playwright/test';
import { expect, notice, signInQuick, test } from '../lib/test';

// Spec §3 (userPreferences in local storage), §4 (theme toggle saves and reloads), §1 (fr/en).

/** Relative luminance (0 black … 1 white) of an element's computed background colour. */
async function backgroundLuminance(page: Page, selector = 'body'): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      // Walk up until an opaque background is found (the page's own background if none).
      let node: Element | null = el;
      let rgba = 'rgba(0, 0, 0, 0)';
      while (node) {
        rgba = getComputedStyle(node).backgroundColor;
        if (!/rgba\(.*, 0\)$/.test(rgba) && rgba !== 'transparent') break;
        node = node.parentElement;
      }
      const [r, g, b] = (rgba.match(/\d+(\.\d+)?/g) ?? ['255', '255', '255']).slice(0, 3).map(Number) as [
        number,
        number,
        number,
      ];
      const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    });
}

const storedPreferences = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('userPreferences') ?? 'null') as { themeMode?: string } | null);

test('the theme toggle switches to dark, persists across reloads, and back to light', async ({ page, stack }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
  expect(await backgroundLuminance(page, 'main')).toBeGreaterThan(0.8); // light by default (spec §9)
  const toDark = page.getByRole('button', { name: 'Activer le thème sombre' });
  // Spec §4: the toggle saves the preference and reloads the page.
  await Promise.all([page.waitForEvent('load'), toDark.click()]);
  await expect(page.getByRole('button', { name: 'Activer le thème clair' })).toBeVisible();
  expect(await storedPreferences(page)).toMatchObject({ themeMode: 'dark', defaultPageSize: 50 });
  await expect.poll(() => backgroundLuminance(page)).toBeLessThan(0.05);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Activer le thème clair' })).toBeVisible();
  await expect.poll(() => backgroundLuminance(page)).toBeLessThan(0.05);

  // Signed in, the shell (and the remote inside it) follow the same preference.
  await signInQuick(page, stack.users.user);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await expect.poll(() => backgroundLuminance(page, 'main')).toBeLessThan(0.05);
  await expect.poll(() => backgroundLuminance(page, '[data-testid="dashboard-count-pending"]')).toBeLessThan(0.1);

  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Activer le thème clair' }).click()]);
  expect(await storedPreferences(page)).toMatchObject({ themeMode: 'light' });
  await expect.poll(() => backgroundLuminance(page, 'main')).toBeGreaterThan(0.8);
});

test('the language selector switches the console from French to English and remembers it', async ({ page, stack }) => {
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
  await expect(page.getByLabel('Adresse e-mail')).toBeVisible();

  await page.getByRole('combobox', { name: 'Langue' }).selectOption('en');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByLabel('E-mail address')).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');

  // Remembered, and applied to the shell and the remote after signing in.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.getByLabel('E-mail address').fill(stack.users.user.email);
  await page.getByLabel('Password', { exact: true }).fill(stack.users.user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(notice(page, 'Signed in successfully')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByText('Dashboard')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});
