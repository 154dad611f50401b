import type { Page, Route } from '@playwright/test';
import { expect, signInQuick, storedTokens, test } from '../lib/test';

// Failure modes: an api that cannot answer (503 database_unavailable, unreachable) must not throw
// away a valid sign-in; only a refusal (401/403) of the refresh signs out (spec §4).

const unavailable = (route: Route) =>
  route.fulfill({
    status: 503,
    contentType: 'application/json',
    headers: { 'Retry-After': '5' },
    body: JSON.stringify({ detail: 'The database is not answering.', code: 'database_unavailable' }),
  });

/** The access token is gone (as if expired): the next call needs a refresh. */
async function dropAccessToken(page: Page) {
  await page.evaluate(() => localStorage.removeItem('accessToken'));
}

test('start-up during an outage: "cannot reach the service" with Retry, the sign-in kept; Retry after it signs in', async ({
  page,
  stack,
}) => {
  await signInQuick(page, stack.users.admin);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await dropAccessToken(page);
  const refresh = (await storedTokens(page))[1];
  await page.route('**/api/**', unavailable);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Service injoignable' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await storedTokens(page))[1]).toBe(refresh);

  await page.unroute('**/api/**');
  await page.getByRole('button', { name: 'Réessayer' }).click();
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the api unreachable at start-up (connection refused) is not a sign-out either', async ({ page, stack }) => {
  await signInQuick(page, stack.users.admin);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await dropAccessToken(page);
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  await page.reload();
  await expect(page.getByTestId('service-unreachable')).toBeVisible();
  expect((await storedTokens(page))[1]).not.toBeNull();
  await page.unroute('**/api/**');
  await page.getByRole('button', { name: 'Réessayer' }).click();
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
});

test('a refresh answered 503 on a Reload: the page says the service is unavailable, the user stays; later Reload works', async ({
  page,
  stack,
}) => {
  await signInQuick(page, stack.users.admin);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await dropAccessToken(page);
  await page.route('**/api/auth/refresh/', unavailable);

  await page.getByRole('button', { name: 'Actualiser' }).click();
  await expect(
    page.getByText('Le service est momentanément indisponible. Réessayez dans quelques instants.').first(),
  ).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await storedTokens(page))[1]).not.toBeNull();

  await page.unroute('**/api/auth/refresh/');
  const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/auth/refresh/') && r.status() === 200);
  await page
    .getByRole('button', { name: /^(Actualiser|Réessayer)$/ })
    .first()
    .click();
  await refreshed;
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a refused refresh (401) still signs out: tokens cleared, /login', async ({ page, stack }) => {
  await signInQuick(page, stack.users.admin);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await dropAccessToken(page);
  await page.route('**/api/auth/refresh/', (route) =>
    route.fulfill({ status: 401, contentType: 'application/json', body: '{"detail":"no","code":"token_invalid"}' }),
  );
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedTokens(page)).toEqual([null, null]);
});

test.describe('remotes that do not load', () => {
  test.use({ allowPageErrors: [/Loading chunk|ChunkLoadError|RUNTIME-00/] });

  test('a remote whose manifest never answers ends in "could not be loaded" with Retry (not an endless spinner)', async ({
    page,
    stack,
  }) => {
    test.setTimeout(60_000);
    await page.route('**/remotes/remote-mail/mf-manifest.json', () => undefined); // never answered
    await signInQuick(page, stack.users.admin);
    await expect(page.getByTestId('remote-load-error')).toBeVisible({ timeout: 30_000 });
    await page.unroute('**/remotes/remote-mail/mf-manifest.json');
    await page.getByRole('button', { name: 'Réessayer' }).click();
    await expect(page.getByTestId('dashboard-count-pending')).toBeVisible({ timeout: 15_000 });
  });

  test('a page chunk lost to the network is "could not be loaded", and Retry downloads it again', async ({
    page,
    stack,
  }) => {
    await signInQuick(page, stack.users.admin, '/statistics');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    // Every further chunk of the remote fails, as offline; then the e-mail detail is opened.
    await page.route('**/remotes/remote-mail/**/*.js', (route) => route.abort('internetdisconnected'));
    await page.goto('/mail/does-not-matter');
    await expect(page.getByTestId('remote-load-error')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('remote-render-error')).toHaveCount(0);
    await page.unroute('**/remotes/remote-mail/**/*.js');
    await page.getByRole('button', { name: 'Réessayer' }).click();
    await expect(page.getByTestId('remote-load-error')).toHaveCount(0, { timeout: 15_000 });
  });
});
