import type { Page } from '@playwright/test';
import { createMailUser, discardHeldMail, ingestDirect, plainMessage, tag } from '../lib/mail';
import { expect, signInQuick, test } from '../lib/test';

// Spec §2: drawer entries by role, 240 px wide, collapses to 64 px.

const ALL_ROLES = ['Tableau de bord', 'Quarantaine', 'Historique', 'Statistiques', 'Paramètres'];
const navigation = (page: Page) => page.getByRole('navigation', { name: 'Navigation principale' });

async function entries(page: Page): Promise<string[]> {
  const nav = navigation(page);
  await expect(nav.getByText('Tableau de bord')).toBeVisible();
  return (await nav.getByRole('menuitem').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

test('a user sees only the entries of every role', async ({ page, stack }) => {
  await signInQuick(page, stack.users.user);
  const items = await entries(page);
  for (const name of ALL_ROLES) expect(items).toContain(name);
  for (const name of ['Utilisateurs', 'Domaines', 'Filtres', 'Haraka']) expect(items).not.toContain(name);
});

test('a domain admin also sees Users, not Domains, Filters or Haraka', async ({ page, stack }) => {
  await signInQuick(page, stack.users.domainAdmin);
  const items = await entries(page);
  for (const name of [...ALL_ROLES, 'Utilisateurs']) expect(items).toContain(name);
  for (const name of ['Domaines', 'Filtres', 'Haraka']) expect(items).not.toContain(name);
});

test('an admin sees every entry, and the groups expand', async ({ page, stack }) => {
  await signInQuick(page, stack.users.admin);
  const items = await entries(page);
  for (const name of [...ALL_ROLES, 'Utilisateurs', 'Domaines', 'Filtres', 'Haraka']) expect(items).toContain(name);
  const nav = navigation(page);
  await nav.getByRole('menuitem', { name: 'Filtres' }).click();
  await expect(nav.getByRole('menuitem', { name: 'Règles système' })).toBeVisible();
  await nav.getByRole('menuitem', { name: 'Haraka' }).click();
  await expect(nav.getByRole('menuitem', { name: 'Journaux par jour' })).toBeVisible();
});

test('on a phone the drawer starts collapsed and leaves the page the width; the lists fit it', async ({
  page,
  stack,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInQuick(page, stack.users.user, '/mail');
  const drawer = page.locator('.ant-layout-sider').first();
  await expect(page.getByRole('heading', { name: 'Quarantaine' })).toBeVisible();
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(64);
  const content = await page.getByTestId('content').boundingBox();
  expect(content!.width).toBeGreaterThanOrEqual(390 - 64 - 2 * 12);
  // Nothing (the pager under the table, say) makes the page wider than the phone.
  await expect(page.getByTestId('quarantine-next')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Nor do the lists scroll sideways: each row is one stacked cell that ends within the screen.
  const tableRight = (testId: string) =>
    page
      .getByTestId(testId)
      .locator('table')
      .first()
      .evaluate((el) => el.getBoundingClientRect().right);
  await expect(page.getByTestId('quarantine-summary').first()).toBeVisible();
  expect(await tableRight('quarantine-table')).toBeLessThanOrEqual(390 - 12);
  await page.goto('/history');
  await expect(page.getByRole('heading', { name: 'Historique' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Entrée' })).toBeVisible();
  expect(await tableRight('history-table')).toBeLessThanOrEqual(390 - 12);
  // The statistics' data table scrolls within its card (it pushed the page sideways).
  await page.goto('/statistics?days=30');
  await page.getByTestId('statistics-data').locator('summary').click();
  await expect(page.getByRole('columnheader', { name: 'Supprimés' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const dayCell = page.getByTestId('statistics-data').locator('tbody tr:not([aria-hidden]) td').first();
  expect((await dayCell.boundingBox())!.height).toBeLessThan(48); // one line, not three
  // Still the user's to expand: over the page, which keeps its place and width, and it closes
  // once a page is chosen.
  await page.getByRole('button', { name: 'Développer le menu' }).click();
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(240);
  expect((await page.getByTestId('content').boundingBox())!.width).toBeGreaterThanOrEqual(390 - 64 - 2 * 12);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page
    .getByRole('navigation', { name: 'Navigation principale' })
    .getByRole('link', { name: 'Quarantaine' })
    .click();
  await expect(page.getByRole('heading', { name: 'Quarantaine' })).toBeVisible();
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(64);
  // Like a dialog: the focus goes into it, the page behind is out of reach, and Escape closes it,
  // giving the focus back to the toggle.
  await page.getByRole('button', { name: 'Développer le menu' }).click();
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(240);
  await expect
    .poll(() => page.evaluate(() => !!document.activeElement?.closest('nav[aria-label="Navigation principale"]')))
    .toBe(true);
  await expect(page.getByTestId('content').locator('xpath=ancestor::*[@inert]')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(64);
  await expect(page.getByTestId('drawer-toggle')).toBeFocused();
  await expect(page.getByTestId('content').locator('xpath=ancestor::*[@inert]')).toHaveCount(0);
});

test('on a phone a message page fits the screen, long addresses and a long user name included', async ({ page }) => {
  const owner = await createMailUser('phone-with-a-rather-long-name');
  const t = tag();
  const from = `newsletter.${t}@marketing-newsletters.example-company.com`;
  const id = await ingestDirect(
    plainMessage({ from, to: owner.email, subject: `Phone ${t}`, messageId: `${t}@phone.example` }),
    { from: `bounces+campaign.${t}@mailer.example-company.com`, to: [owner.email] },
  );
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInQuick(page, owner, `/mail/${id}`);
    await expect(page.getByTestId('email-field-sender')).toContainText(from);
    await expect(page.getByTestId('email-symbol-summary').first()).toBeVisible();
    // Neither the top bar (the avatar only) nor the message's fields and tables push past the edge.
    await expect(page.getByTestId('profile-username')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const right = await page
      .getByTestId('email-symbols')
      .locator('table')
      .evaluate((el) => el.getBoundingClientRect().right);
    expect(right).toBeLessThanOrEqual(390 - 12);
    // On a wide screen, the name is back (cut, whole in its tooltip).
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(page.getByTestId('profile-username')).toHaveAttribute('title', owner.email.split('@')[0]!);
  } finally {
    await discardHeldMail(owner.email);
  }
});

test('Escape gives the focus back to what opened: the profile menu, the two-step verification dialog', async ({
  page,
  stack,
}) => {
  await signInQuick(page, stack.users.user);
  const menuButton = page.getByTestId('profile-menu');
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Profil' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Profil' })).toBeHidden();
  await expect(menuButton).toBeFocused();

  await page.goto('/profile');
  const enable = page.getByTestId('mfa-enable');
  await enable.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(enable).toBeFocused();
});

test('the first Tab stop skips to the content, past the drawer and the top bar', async ({ page, stack }) => {
  await signInQuick(page, stack.users.user);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Aller au contenu' });
  await expect(skip).toBeFocused();
  expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0); // drawn while focused
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('content')).toBeFocused();
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  // The next Tab goes into the page, not back to the drawer.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="content"]'))).toBe(true);
});

test('on a long page the navigation and the top bar stay in view', async ({ page, stack }) => {
  await page.setViewportSize({ width: 1440, height: 420 });
  await signInQuick(page, stack.users.admin, '/statistics');
  await expect(page.getByTestId('statistics-page')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
  const inView = async (testId: string) => {
    const box = (await page.getByTestId(testId).boundingBox())!;
    return box.y >= 0 && box.y + box.height <= 420;
  };
  expect(await inView('drawer-toggle')).toBe(true);
  expect(await inView('profile-menu')).toBe(true);
  const dashboardLink = navigation(page).getByRole('link', { name: 'Tableau de bord' });
  const link = (await dashboardLink.boundingBox())!;
  expect(link.y).toBeGreaterThanOrEqual(0);
  expect(link.y + link.height).toBeLessThanOrEqual(420);
});

test('the drawer is 240 px wide and collapses to 64 px', async ({ page, stack }) => {
  await signInQuick(page, stack.users.user);
  const drawer = page.locator('.ant-layout-sider').first();
  await expect(navigation(page).getByText('Tableau de bord')).toBeVisible();
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(240);
  await page.getByRole('button', { name: 'Réduire le menu' }).click();
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(64);
  await page.getByRole('button', { name: 'Développer le menu' }).click();
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBe(240);
});
