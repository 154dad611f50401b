import type { Page } from '@playwright/test';
import { signInApi } from '../lib/seed';
import { apiAnswer, expect, notice, signInQuick, test } from '../lib/test';
import { createUser } from '../lib/users';

// Spec §2 (/settings), §3 (userPreferences in localStorage AND the account copy, merged on load),
// DESIGN §4 (GET/PUT /api/users/me/preferences/).

const storedPreferences = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('userPreferences') ?? 'null') as Record<string, unknown> | null);

/** Relative luminance (0 black … 1 white) of an element's own computed background colour. */
const luminance = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const [r, g, b] = (getComputedStyle(el).backgroundColor.match(/\d+(\.\d+)?/g) ?? []).map(Number) as number[];
    const lin = (c = 255) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  });

test('page size and theme saved from /settings persist in the browser and on the account', async ({ page, stack }) => {
  const user = await createUser('settings');
  await signInQuick(page, user, '/settings');
  await expect(page.getByTestId('settings-page')).toBeVisible();
  const theme = page.getByTestId('preferences-theme');
  const size = page.getByTestId('preferences-page-size');
  await expect(theme.getByRole('radio', { name: /Clair/ })).toBeChecked(); // defaults (spec §9)
  await expect(size.getByRole('radio', { name: '50', exact: true })).toBeChecked();
  expect(await luminance(page, 'settings-section-preferences')).toBeGreaterThan(0.8);

  await size.getByText('20', { exact: true }).click();
  await theme.getByText('Sombre').click();
  const saved = apiAnswer(page, '/api/users/me/preferences/', 'PUT');
  await page.getByTestId('preferences-save').click();
  expect((await saved).status()).toBe(200);
  await expect(notice(page, 'Préférences enregistrées avec succès')).toBeVisible();
  expect(await storedPreferences(page)).toMatchObject({ themeMode: 'dark', defaultPageSize: 20 });
  await expect.poll(() => luminance(page, 'settings-section-preferences')).toBeLessThan(0.05);

  // The account copy, read on its own.
  const access = await signInApi(stack.baseURL, user.email, user.password);
  const server = await page.request.get('/api/users/me/preferences/', {
    headers: { Authorization: `Bearer ${access}` },
  });
  expect(server.status()).toBe(200);
  expect(await server.json()).toMatchObject({ theme_mode: 'dark', default_page_size: 20 });

  await page.reload();
  await expect(theme.getByRole('radio', { name: /Sombre/ })).toBeChecked();
  await expect(size.getByRole('radio', { name: '20', exact: true })).toBeChecked();
  expect(await luminance(page, 'settings-section-preferences')).toBeLessThan(0.05);

  // A browser without the local copy (another machine): the account copy comes back.
  await page.evaluate(() => localStorage.removeItem('userPreferences'));
  await page.reload();
  await expect(theme.getByRole('radio', { name: /Sombre/ })).toBeChecked();
  await expect(size.getByRole('radio', { name: '20', exact: true })).toBeChecked();
  await expect.poll(() => storedPreferences(page)).toMatchObject({ themeMode: 'dark', defaultPageSize: 20 });

  // Spec §3: the preferences reload with the session, on any page (not only once /settings opens).
  await page.evaluate(() => localStorage.removeItem('userPreferences'));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Tableau de bord' })).toBeVisible();
  await expect.poll(() => storedPreferences(page)).toMatchObject({ themeMode: 'dark', defaultPageSize: 20 });
});
