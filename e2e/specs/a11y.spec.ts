import { axeFindings, iconNamedControls } from '../lib/a11y';
import { apiAs } from '../lib/api-client';
import { tag } from '../lib/mail';
import type { SeedUser } from '../lib/stack';
import { saveDarkTheme } from '../lib/seed';
import { cancelDialog, expect, signInQuick, signInUi, signOutUi, test } from '../lib/test';
import { totp, totpStep } from '../lib/totp';
import { createUser } from '../lib/users';

// WCAG 2.1 A and AA, as axe-core checks them, on the console's pages in both themes: contrast of
// text (antd's default greys, placeholders and reds are below 4.5:1, so the theme overrides them:
// shared/ui-state/src/theme.store.ts), names, labels, roles. A finding fails the test with the rule,
// the element and axe's explanation.

// axe is injected as a script: the console's CSP (script-src 'self') rightly refuses it otherwise.
test.use({ bypassCSP: true });

const PAGES: [string, string | null][] = [
  ['/dashboard', 'Tableau de bord'],
  ['/mail?status=all', 'Quarantaine'],
  ['/history', 'Historique'],
  ['/statistics', 'Statistiques'],
  ['/settings', null],
  ['/profile', null],
  ['/users', 'Utilisateurs'],
  ['/users/new', 'Nouvel utilisateur'],
  ['/domains', 'Domaines'],
  ['/domains/new', 'Nouveau domaine'],
  ['/directory', 'Annuaire'],
  ['/rspamd', 'Filtres standard'],
  ['/rspamd/domains/create', 'Nouveau filtre de domaine'],
  ['/rspamd/apanel-filters', 'Filtres du panneau de contrôle'],
  ['/rspamd/apanel-filters/create', 'Nouveau filtre du panneau de contrôle'],
  ['/rspamd/system-rules', 'Règles système'],
  ['/rspamd/system-rules/create', 'Nouvelle règle système'],
  ['/haraka/logs', 'Journaux Haraka'],
  ['/haraka/statistics/summary', 'Résumé statistique Haraka'],
  ['/haraka/statistics/logs-per-day', 'Journaux par jour'],
  // A digest link's page (issue 20), here for a link that is not one.
  ['/digest/not-a-link.x', 'Lien invalide'],
];

/**
 * One rule of each kind, so the rspamd lists show rows (their action tags, switches and links are
 * checked too, in both themes); each action colour of the lists among them. Removed afterwards.
 */
async function seedRules(user: SeedUser): Promise<() => Promise<void>> {
  const api = apiAs(user);
  const t = tag();
  const made = [
    ...(
      [
        ['reject', 'wildcard', `*.a11y-${t}.example`],
        ['quarantine', 'exact', `q-a11y-${t}.example`],
        ['accept', 'exact', `ok-a11y-${t}.example`],
        ['add_header', 'regex', `/^h-a11y-${t}\\.example$/`],
      ] as const
    ).map(
      ([action, pattern_type, value]) =>
        [
          '/api/rspamd/filters/domains/',
          { value, pattern_type, action, description: `a11y ${action}`, enabled: action !== 'accept' },
        ] as const,
    ),
    [
      '/api/rspamd/apanel-filters/',
      { owner_id: null, from: `*@a11y-${t}.example`, to: '*', action: 'discard', description: 'a11y discard' },
    ] as const,
    [
      '/api/rspamd/system-rules/',
      { name: `a11y ${t}`, subject: `*a11y ${t}*`, ip: '192.0.2.0/24', action: 'greylist' },
    ] as const,
    [
      '/api/rspamd/system-rules/',
      { name: `a11y soft ${t}`, from: `*@soft-${t}.example`, action: 'soft_reject' },
    ] as const,
  ];
  const ids: string[] = [];
  for (const [path, body] of made) ids.push(`${path}${(await api.post<{ id: string }>(path, body, 201)).id}/`);
  return async () => {
    for (const path of ids) await api.del(path);
  };
}

for (const theme of ['light', 'dark'] as const) {
  test(`no WCAG A/AA findings on the console's pages, ${theme} theme`, async ({ page, stack }) => {
    test.setTimeout(150_000);
    const user = await createUser(`a11y-${theme}`, 'admin');
    if (theme === 'dark') await saveDarkTheme(stack.baseURL, user);
    await signInQuick(page, user, '/dashboard');
    // The theme asked for is the one shown (the page's background: black or light grey), once the
    // account's preferences have been merged.
    const background = () =>
      page
        .locator('.ant-layout')
        .first()
        .evaluate((el) => (getComputedStyle(el).backgroundColor.match(/\d+/g) ?? []).slice(0, 3).map(Number));
    await expect
      .poll(async () => (await background()).reduce((a, b) => a + b, 0))
      [theme === 'dark' ? 'toBeLessThan' : 'toBeGreaterThan'](theme === 'dark' ? 150 : 600);
    const findings: string[] = [];
    const removeRules = await seedRules(user);
    for (const [path, heading] of PAGES) {
      await page.goto(path);
      if (heading) await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      await page.waitForLoadState('networkidle');
      findings.push(...(await axeFindings(page)).map((f) => `${path}: ${f}`));
      findings.push(...(await iconNamedControls(page)).map((f) => `${path}: ${f}`));
    }
    // A rule list's delete confirmation (cancelled: nothing is deleted).
    await page.goto('/rspamd/system-rules');
    await page.getByTestId('rule-delete').first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    findings.push(...(await axeFindings(page, '[role="dialog"]')).map((f) => `rule delete confirmation: ${f}`));
    await cancelDialog(page);
    await removeRules();
    // A filter with text shows its clear button, named in words.
    await page.goto('/history');
    await page.getByTestId('history-filter-user').fill('nobody');
    await expect(page.getByRole('button', { name: 'Effacer « Utilisateur (e-mail) »' })).toBeVisible();
    findings.push(...(await iconNamedControls(page)).map((f) => `filled filter: ${f}`));
    // Two dialogs: the bulk delete confirmation (cancelled: nothing is deleted) and the feedback form.
    await page.goto('/mail');
    await page
      .getByRole('checkbox', { name: /^Sélectionner « / })
      .first()
      .check();
    await page.getByTestId('quarantine-bulk-delete').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    findings.push(...(await axeFindings(page, '[role="dialog"]')).map((f) => `bulk delete confirmation: ${f}`));
    await cancelDialog(page);
    await page.getByTestId('feedback-button').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    findings.push(...(await axeFindings(page, '[role="dialog"]')).map((f) => `feedback dialog: ${f}`));
    // One message's page (the first quarantined one), and its release confirmation (cancelled).
    await page.goto('/mail');
    await page.getByRole('table').getByRole('link').first().click();
    await expect(page.getByTestId('email-release')).toBeEnabled();
    await page.waitForLoadState('networkidle');
    findings.push(...(await axeFindings(page)).map((f) => `message page: ${f}`));
    await page.getByTestId('email-release').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    findings.push(...(await axeFindings(page, '[role="dialog"]')).map((f) => `release confirmation: ${f}`));
    await page.getByTestId('email-confirm-cancel').click();
    await expect(page.getByRole('dialog')).toBeHidden();
    // Two-factor set-up on /profile, each of its three steps, then the code step of the next sign-in.
    await page.goto('/profile');
    await page.getByTestId('mfa-enable').click();
    const modal = page.getByTestId('mfa-enable-modal');
    await expect(page.getByTestId('mfa-qr')).toBeVisible();
    findings.push(...(await axeFindings(page, '[role="dialog"]')).map((f) => `MFA set-up, scan: ${f}`));
    const secret = (await page.getByTestId('mfa-secret').innerText()).replace(/\s/g, '');
    await page.getByTestId('mfa-next').click();
    await expect(modal).toHaveAttribute('data-step', 'verify');
    findings.push(...(await axeFindings(page, '[role="dialog"]')).map((f) => `MFA set-up, verify: ${f}`));
    await page.getByTestId('mfa-code').fill(totp(secret, totpStep()));
    await page.getByTestId('mfa-verify').click();
    await expect(modal).toHaveAttribute('data-step', 'codes');
    findings.push(...(await axeFindings(page, '[role="dialog"]')).map((f) => `MFA set-up, backup codes: ${f}`));
    await page.getByRole('checkbox', { name: 'J’ai enregistré ces codes' }).check();
    await page.getByTestId('mfa-codes-done').click();
    await expect(modal).toBeHidden();
    await signOutUi(page);
    await signInUi(page, user);
    await expect(page.getByTestId('two-factor-step')).toBeVisible();
    findings.push(...(await axeFindings(page)).map((f) => `two-factor step: ${f}`));
    // Hover colours too: a link's, a primary button's.
    await page.getByTestId('totp-back').hover();
    findings.push(...(await axeFindings(page, '[data-testid="totp-back"]')).map((f) => `hovered link: ${f}`));
    await page.getByTestId('totp-submit').hover();
    findings.push(...(await axeFindings(page, '[data-testid="totp-submit"]')).map((f) => `hovered button: ${f}`));
    expect(findings).toEqual([]);
  });
}

test('no WCAG A/AA findings on the sign-in page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
  expect(await axeFindings(page)).toEqual([]);
});
