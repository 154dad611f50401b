import type { Page } from '@playwright/test';
import { oidcInfo } from '../lib/oidc';
import { apiAnswer, expect, notice, storedTokens, test } from '../lib/test';

// Issue 32: single sign-on with a real OpenID Provider (oidc-provider in its own process,
// lib/oidc-harness.ts). The button on /login goes to the provider's own sign-in page; back in the
// console the person is signed in (an account made for them), lands where they were going, and
// signing out ends the provider's session too. Refusals come back to /login as a message.

test.beforeAll(() => {
  oidcInfo(); // fails every test here, with the reason, when the provider did not start
});

/** From /login, through the provider's sign-in page, as the person would (or pressing Cancel). */
async function signInAtProvider(page: Page, person: { login: string; password: string }, cancel = false) {
  const { issuer, label } = oidcInfo();
  await page.getByRole('button', { name: `Se connecter avec ${label}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${issuer}/interaction/`));
  if (cancel) return page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByLabel('Username').fill(person.login);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a person signs in with the provider, lands where they were going, and signs out there too', async ({ page }) => {
  const { people, issuer } = oidcInfo();
  await page.goto('/history');
  await expect(page).toHaveURL(/\/login$/);
  const exchanged = apiAnswer(page, '/api/auth/oidc/exchange/');
  await signInAtProvider(page, people.oscar);
  expect((await exchanged).status()).toBe(200);
  await expect(page).toHaveURL(/\/history$/);
  // The ticket is in no address the browser kept.
  expect(page.url()).not.toContain('ticket');

  const [access] = await storedTokens(page);
  const me = await page.request.get('/api/users/me/', { headers: { authorization: `Bearer ${access}` } });
  expect(await me.json()).toMatchObject({ email: people.oscar.email, source: 'oidc', role: 'user' });

  const logout = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout/'));
  await page.getByRole('button', { name: 'Menu du profil' }).click();
  await page.getByRole('menuitem', { name: 'Se déconnecter' }).click();
  expect((await logout).status()).toBe(204);
  // The provider's sign-out page (RP-initiated logout), then back to /login.
  await expect(page).toHaveURL(new RegExp(`^${issuer}/`));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/login(\?.*)?$/);
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();

  // Signed out at the provider too: the next sign-in asks for the password again.
  await signInAtProvider(page, people.oscar, true);
  await expect(notice(page, /annulée/)).toBeVisible();
});

test('an e-mail the provider does not vouch for is refused with its message; the address is cleaned', async ({
  page,
}) => {
  const { people } = oidcInfo();
  await page.goto('/login');
  await signInAtProvider(page, people.carol);
  await expect(notice(page, /ne garantit pas votre adresse e-mail/)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/); // ?sso_error= removed: a reload does not say it again
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
});

test('a ticket made up or used already brings the person back to /login with “start again”', async ({ page }) => {
  await page.goto('/login/sso#ticket=made-up-ticket-0123456789abcdefghijklmnopqrstuv');
  await expect(page).toHaveURL(/\/login$/);
  await expect(notice(page, /Recommencez/)).toBeVisible();
});
