import type { Page } from '@playwright/test';
import { apiAnswer, expect, notice, signInQuick, signInUi, signOutUi, storedTokens, test } from '../lib/test';
import { totp, totpStep, waitForStepAfter, wrongTotp } from '../lib/totp';
import { createUser, enableMfaByApi } from '../lib/users';

// Spec §2 (/login code step), §4 (MFA on /profile, backup codes), DESIGN §4/§7 (verify-totp, a TOTP
// step and a backup code are accepted once). Each test has its own fresh user.

const CODE_FAILED = 'Échec de la vérification du code. Veuillez réessayer.';
const isVerify = (r: { url(): string }) => r.url().endsWith('/api/auth/verify-totp/');

/** Password step of /login, then the code step must replace the form (still on /login, no tokens). */
async function passwordStep(page: Page, user: { email: string; password: string }) {
  if (!/\/login$/.test(page.url())) await page.goto('/login');
  const login = page.waitForResponse((r) => r.url().endsWith('/api/auth/login/'));
  await signInUi(page, user);
  expect((await login).status()).toBe(200);
  const step = page.getByTestId('two-factor-step');
  await expect(step).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Authentification à deux facteurs', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedTokens(page)).toEqual([null, null]);
  return step;
}

async function submitCode(page: Page, status: number) {
  const verify = page.waitForResponse(isVerify);
  await page.getByTestId('totp-submit').click();
  expect((await verify).status(), 'POST /api/auth/verify-totp/').toBe(status);
}

test('MFA turned on from /profile with a real TOTP, then sign-in asks for a fresh code', async ({ page }) => {
  // The generator itself first: RFC 6238 appendix B, SHA1 key "12345678901234567890", T = 59 s
  // → 94287082, of which an app shows the last 6 digits.
  expect(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 1), 'e2e/lib/totp.ts').toBe('287082');
  const user = await createUser('mfa');
  await signInQuick(page, user, '/profile');
  const section = page.getByTestId('mfa-section');
  await expect(section).toHaveAttribute('data-enabled', 'false');

  await page.getByTestId('mfa-enable').click();
  const modal = page.getByTestId('mfa-enable-modal');
  await expect(modal).toHaveAttribute('data-step', 'scan');
  await expect(page.getByTestId('mfa-qr')).toBeVisible();
  const secret = (await page.getByTestId('mfa-secret').innerText()).replace(/\s/g, '');
  expect(secret, 'the key shown for manual entry').toMatch(/^[A-Z2-7]{26,}$/);
  await page.getByTestId('mfa-next').click();
  await expect(modal).toHaveAttribute('data-step', 'verify');
  const enabledStep = totpStep();
  await page.getByTestId('mfa-code').fill(totp(secret, enabledStep));
  const enable = apiAnswer(page, '/api/users/me/mfa/enable/');
  await page.getByTestId('mfa-verify').click();
  expect((await enable).status()).toBe(200);
  await expect(modal).toHaveAttribute('data-step', 'codes');
  await expect(notice(page, 'Authentification à deux facteurs activée avec succès')).toBeVisible();
  const codes = page.getByTestId('mfa-backup-codes').locator('li');
  await expect(codes).toHaveCount(10);
  for (const code of await codes.allInnerTexts()) expect(code.trim()).toMatch(/^[2-9A-HJ-NP-Z]{10}$/);
  // "Done" only once the user said the codes are saved.
  await expect(page.getByTestId('mfa-codes-done')).toBeDisabled();
  await page.getByRole('checkbox', { name: 'J’ai enregistré ces codes' }).check();
  await page.getByTestId('mfa-codes-done').click();
  await expect(modal).toBeHidden();
  await expect(section).toHaveAttribute('data-enabled', 'true');

  await signOutUi(page);
  await passwordStep(page, user);
  // A wrong code: the failure notice, the step stays, nothing stored.
  await page.getByTestId('totp-input').fill(wrongTotp(secret));
  await submitCode(page, 401);
  await expect(notice(page, CODE_FAILED)).toBeVisible();
  await expect(page.getByTestId('two-factor-step')).toBeVisible();
  expect(await storedTokens(page)).toEqual([null, null]);
  // Nor is the code that turned MFA on: its step was used once already (replay protection).
  await page.getByTestId('totp-input').fill(totp(secret, enabledStep));
  await submitCode(page, 401);
  await expect(page.getByTestId('two-factor-step')).toBeVisible();

  // A fresh code: the authenticator's next one, once the enabling step is over.
  await waitForStepAfter(enabledStep);
  await page.getByTestId('totp-input').fill(totp(secret));
  await submitCode(page, 200);
  await expect(notice(page, 'Connexion réussie')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await storedTokens(page))[0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
});

test('a backup code signs in once; the same code is refused the next time', async ({ page }) => {
  const user = await createUser('backup');
  const { backupCodes } = await enableMfaByApi(user);
  expect(backupCodes).toHaveLength(10);
  const [first, second] = backupCodes as [string, string];

  const step = await passwordStep(page, user);
  await expect(page.getByTestId('backup-code-switch')).toHaveText('Utiliser un code de secours');
  await page.getByTestId('backup-code-switch').click();
  await expect(step).toHaveAttribute('data-method', 'backup');
  await page.getByTestId('backup-code-input').fill(first);
  await submitCode(page, 200);
  await expect(notice(page, 'Connexion réussie')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  await signOutUi(page);
  await passwordStep(page, user);
  await page.getByTestId('backup-code-switch').click();
  await page.getByTestId('backup-code-input').fill(first);
  await submitCode(page, 401);
  await expect(notice(page, CODE_FAILED)).toBeVisible();
  await expect(page.getByTestId('two-factor-step')).toHaveAttribute('data-method', 'backup');
  expect(await storedTokens(page)).toEqual([null, null]);
  // Only that code is spent: another one still works in the same step.
  await page.getByTestId('backup-code-input').fill(second);
  await submitCode(page, 200);
  await expect(page).toHaveURL(/\/dashboard$/);
});
