import { expect, loginForm, notice, signInQuick, signInUi, test } from '../lib/test';

// Spec §2 (/login), §4 (session transitions), §8 (notices). French is the default language.

test('a wrong password shows the failure notice and keeps the visitor on /login', async ({ page, stack }) => {
  await page.goto('/login');
  const login = page.waitForResponse((r) => r.url().endsWith('/api/auth/login/'));
  await signInUi(page, { email: stack.users.user.email, password: 'not-the-password' });
  expect((await login).status()).toBe(401);
  await expect(notice(page, 'Échec de la connexion. Vérifiez vos identifiants.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(
    await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]),
  ).toEqual([null, null]);
  await expect(loginForm(page).submit).toBeEnabled();
});

test('signing in shows the success notice and lands on the dashboard with real counts', async ({ page, stack }) => {
  await page.goto('/login');
  await signInUi(page, stack.users.user);
  await expect(notice(page, 'Connexion réussie')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const tokens = await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]);
  expect(tokens[0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/); // a JWT
  expect(tokens[1]).toBeTruthy();
  // The three counters of the dashboard (spec §2), as the user may see them (DESIGN §4).
  expect(stack.seedError, 'seeding quarantined mail (global setup)').toBeUndefined();
  test.info().annotations.push({ type: 'seeded via', description: stack.seedVia ?? '' });
  const counts = stack.counts!.user;
  await expect(page.getByTestId('dashboard-count-pending')).toHaveText(String(counts.pending));
  await expect(page.getByTestId('dashboard-count-released')).toHaveText(String(counts.released));
  await expect(page.getByTestId('dashboard-count-deleted')).toHaveText(String(counts.deleted));
});

for (const who of ['admin', 'domainAdmin'] as const) {
  test(`the dashboard counts follow the ${who}'s scope`, async ({ page, stack }) => {
    expect(stack.seedError, 'seeding quarantined mail (global setup)').toBeUndefined();
    const counts = stack.counts![who];
    await signInQuick(page, stack.users[who]);
    await expect(page.getByTestId('dashboard-count-pending')).toHaveText(String(counts.pending));
    await expect(page.getByTestId('dashboard-count-released')).toHaveText(String(counts.released));
    await expect(page.getByTestId('dashboard-count-deleted')).toHaveText(String(counts.deleted));
  });
}

test('logging out shows the notice, clears the session and returns to /login', async ({ page, stack }) => {
  await signInQuick(page, stack.users.user);
  await expect(page).toHaveURL(/\/dashboard$/);
  const refresh = await page.evaluate(() => localStorage.getItem('refreshToken'));
  await page.getByRole('button', { name: 'Menu du profil' }).click();
  const logout = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout/'));
  await page.getByRole('menuitem', { name: 'Se déconnecter' }).click();
  expect((await logout).status()).toBe(204);
  await expect(notice(page, 'Vous avez été déconnecté')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(
    await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]),
  ).toEqual([null, null]);
  // The server revoked the family: the old refresh token no longer works (DESIGN §4).
  const reuse = await page.request.post('/api/auth/refresh/', { data: { refresh } });
  expect(reuse.status()).toBe(401);
  // And the protected area is closed again.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('an unauthenticated deep link goes to /login, then back to the origin after signing in', async ({
  page,
  stack,
}) => {
  await page.goto('/history');
  await expect(page).toHaveURL(/\/login(\?.*)?$/);
  await expect(loginForm(page).email).toBeVisible();
  await signInUi(page, stack.users.user);
  await expect(page).toHaveURL(/\/history$/);
  await expect(page.getByRole('heading', { name: 'Historique', level: 1 })).toBeVisible();
});

for (const path of ['/users', '/users/new', '/domains', '/rspamd', '/rspamd/system-rules', '/haraka/logs']) {
  test(`a user without the role is sent from ${path} to /dashboard`, async ({ page, stack }) => {
    await signInQuick(page, stack.users.user, path);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
    await expect(page.getByText('Vous n’avez pas accès à cette page', { exact: false })).toBeVisible();
  });
}

test('a domain admin may open /users but is sent from /domains to /dashboard', async ({ page, stack }) => {
  await signInQuick(page, stack.users.domainAdmin, '/users');
  await expect(page).toHaveURL(/\/users$/);
  await page.goto('/domains');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/directory');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an unknown path shows the not-found page', async ({ page, stack }) => {
  await signInQuick(page, stack.users.user, '/no/such/page');
  await expect(page.getByText('Page introuvable')).toBeVisible();
  await expect(page).toHaveURL(/\/no\/such\/page$/);
  await page
    .getByRole('link', { name: 'Retour au tableau de bord' })
    .or(page.getByRole('button', { name: 'Retour au tableau de bord' }))
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
