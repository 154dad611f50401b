import {
  apiAnswer,
  expect,
  loginForm,
  notice,
  signInQuick,
  signInUi,
  signOutUi,
  storedTokens,
  test,
} from '../lib/test';
import { createUser } from '../lib/users';

// Spec §5 (/profile password change: validation, wrong current password), §4 (session), DESIGN §4
// (POST /api/users/me/password/: a wrong current password is a 400, never a 401).

test('password change: wrong current password, mismatch, success, then only the new one signs in', async ({ page }) => {
  const user = await createUser('password');
  const next = `${user.password}-new`;
  await signInQuick(page, user, '/profile');
  const form = page.getByTestId('password-form');
  await expect(form).toBeVisible();
  const calls: number[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/users/me/password/') calls.push(Date.now());
  });

  // Confirmation differs: said on the field, nothing sent.
  await page.getByTestId('password-current').fill(user.password);
  await page.getByTestId('password-new').fill(next);
  await page.getByTestId('password-confirm').fill(`${next}x`);
  await page.getByTestId('password-submit').click();
  await expect(form.getByText('Les mots de passe ne correspondent pas')).toBeVisible();
  expect(calls, 'POST /api/users/me/password/ with a mismatch').toEqual([]);

  // Wrong current password: 400, shown on its field; the user stays signed in.
  await page.getByTestId('password-current').fill('not-the-current-password');
  await page.getByTestId('password-confirm').fill(next);
  let answer = apiAnswer(page, '/api/users/me/password/');
  await page.getByTestId('password-submit').click();
  expect((await answer).status()).toBe(400);
  await expect(form.getByText('Mot de passe actuel incorrect')).toBeVisible();
  await expect(notice(page, 'Erreur lors du changement de mot de passe')).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  expect((await storedTokens(page)).every(Boolean), 'tokens kept').toBe(true);
  await page.reload();
  await expect(page.getByTestId('profile-page')).toBeVisible();
  await expect(page.getByTestId('profile-email')).toHaveValue(user.email);
  await expect(page).toHaveURL(/\/profile$/);

  // The right one: success notice, the form is emptied, still signed in.
  await page.getByTestId('password-current').fill(user.password);
  await page.getByTestId('password-new').fill(next);
  await page.getByTestId('password-confirm').fill(next);
  answer = apiAnswer(page, '/api/users/me/password/');
  await page.getByTestId('password-submit').click();
  expect((await answer).status()).toBe(204);
  await expect(notice(page, 'Mot de passe modifié avec succès')).toBeVisible();
  await expect(page.getByTestId('password-current')).toHaveValue('');
  await expect(page).toHaveURL(/\/profile$/);

  // Signed out: the old password no longer works, the new one does.
  await signOutUi(page);
  const login = loginForm(page);
  const oldLogin = page.waitForResponse((r) => r.url().endsWith('/api/auth/login/'));
  await signInUi(page, user);
  expect((await oldLogin).status()).toBe(401);
  await expect(notice(page, 'Échec de la connexion. Vérifiez vos identifiants.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  // Submitted with Enter: after a quick failed sign-in antd may leave its invisible "loading" icon
  // in the button, whose accessible name is then "loading Se connecter" (reported, not hidden here).
  await login.password.fill(next);
  await login.password.press('Enter');
  await expect(notice(page, 'Connexion réussie')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
});

// Security review: a new e-mail needs the current password (a stolen access token alone must not
// move the account); the field shows only while the e-mail differs, and the API's refusal is said on it.
test('e-mail change: the current password is asked for, a wrong one is said on its field, the right one leaves the change pending', async ({
  page,
}) => {
  const user = await createUser('email-change');
  const next = `moved-${user.email}`;
  await signInQuick(page, user, '/profile');
  const form = page.getByTestId('profile-form');
  await expect(form).toBeVisible();
  const password = page.getByTestId('profile-current-password');
  await expect(password).toHaveCount(0);

  await page.getByTestId('profile-email').fill(next);
  await expect(password).toBeVisible();
  await password.fill('not-the-current-password');
  let answer = apiAnswer(page, '/api/users/me/', 'PATCH');
  await page.getByTestId('profile-save').click();
  expect((await answer).status()).toBe(400);
  await expect(form.getByText('Mot de passe actuel incorrect')).toBeVisible();
  await expect(notice(page, 'Erreur lors de la mise à jour du profil')).toBeVisible();
  await expect(form.getByTestId('profile-pending-email')).toHaveCount(0);

  await password.fill(user.password);
  answer = apiAnswer(page, '/api/users/me/', 'PATCH');
  await page.getByTestId('profile-save').click();
  expect((await answer).status()).toBe(200);
  await expect(notice(page, 'Profil mis à jour avec succès')).toBeVisible();
  await expect(form.getByTestId('profile-pending-email')).toContainText(next);
  // Not in effect until the link is confirmed: the form shows the current address, no password field.
  await expect(page.getByTestId('profile-email')).toHaveValue(user.email);
  await expect(password).toHaveCount(0);
});
