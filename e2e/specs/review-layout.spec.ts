import type { Locator, Page } from '@playwright/test';
import { apiAs } from '../lib/api-client';
import { createMailUser, ingestDirect, plainMessage, tag } from '../lib/mail';
import type { SeedUser } from '../lib/stack';
import { expect, notice, signInQuick, test } from '../lib/test';

// Issue 23 in a real browser, where layout is real (the component tests only see styles): on a
// phone the bulk bar stays in reach, the detail's tabs and images notice fit, the sign-in notices
// leave the form usable and the feedback button covers nothing; at 1440 px the subject has room.

const PHONE = { width: 390, height: 844 };
const HTML_WITH_IMAGE = (t: string) =>
  [
    'From: "Service client" <news@example.net>',
    'To: placeholder',
    `Subject: E2E layout ${t}`,
    `Message-ID: <layout-${t}@example.net>`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>Hello</p><img src="https://images.example.net/pixel-${t}.png" alt="">`,
    '',
  ].join('\r\n');

let t: string;
let owner: SeedUser;
const ids: string[] = [];

test.beforeAll(async () => {
  t = tag();
  owner = await createMailUser('layout');
  for (let n = 1; n <= 14; n++) {
    const from = `sender-${n}-${t}@example.net`;
    const subject = `E2E layout ${t} ${n} ${'a long subject that names the whole offer '.repeat(2)}`;
    ids.push(
      await ingestDirect(plainMessage({ from, to: owner.email, subject, messageId: `l${n}-${t}@x.net`, spam: true }), {
        from,
        to: [owner.email],
      }),
    );
  }
  const html = HTML_WITH_IMAGE(t).replace('To: placeholder', `To: ${owner.email}`);
  ids.push(await ingestDirect(html, { from: 'news@example.net', to: [owner.email] }));
});
test.afterAll(async () => {
  for (const id of ids)
    await apiAs(owner)
      .del(`/api/quarantine/${id}/`)
      .catch(() => undefined);
});

const box = async (l: Locator) => (await l.boundingBox())!;
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
async function inViewport(page: Page, l: Locator): Promise<boolean> {
  const b = await box(l);
  const v = page.viewportSize()!;
  return b.y >= 0 && b.y + b.height <= v.height && b.x >= 0 && b.x + b.width <= v.width;
}

test('on a phone the bulk bar stays in reach while the list scrolls, and the feedback button covers nothing', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signInQuick(page, owner, '/mail');
  const rows = page.getByTestId('quarantine-row');
  await expect(rows.first()).toBeVisible();
  await rows.first().getByRole('checkbox').check();
  const bar = page.getByTestId('quarantine-bulk-bar');
  await expect(bar).toBeVisible();
  // The page is longer than the screen: the bar is in view at the top and at the bottom of it.
  expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
  expect(await inViewport(page, bar.getByTestId('quarantine-bulk-release'))).toBe(true);
  await page.mouse.wheel(0, 600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  expect(await inViewport(page, bar.getByTestId('quarantine-bulk-delete'))).toBe(true);
  // The feedback button is not floating over the rows on a phone.
  await expect(page.getByTestId('feedback-button').and(page.locator('[data-placement="float"]'))).toHaveCount(0);
});

test('on a phone the detail’s four tabs and the remote-images notice fit the screen', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInQuick(page, owner, `/mail/${ids.at(-1)}`);
  await expect(page.getByTestId('email-detail')).toBeVisible();
  for (const tab of ['preview', 'text', 'headers', 'raw']) {
    const label = page.getByTestId(`email-tab-${tab}`);
    await expect(label).toBeVisible();
    // Within the screen's width (the tab bar is lower than one screen: its height is not the point).
    await label.scrollIntoViewIfNeeded();
    const b = await box(label);
    expect(b.x >= 0 && b.x + b.width <= PHONE.width, `tab ${tab} within the width`).toBe(true);
  }
  const blocked = page.getByTestId('email-images-blocked');
  await expect(blocked).toBeVisible();
  // Its text has a real column, not ~25 px squeezed beside the button.
  const text = blocked.locator('.ant-alert-title, .ant-alert-message').first();
  expect((await box(text)).width).toBeGreaterThan(150);
  expect((await box(blocked)).width).toBeLessThanOrEqual(PHONE.width);
});

test('on a phone a sign-in error leaves the submit button and the forgot-password link uncovered', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await page.getByLabel('Adresse e-mail').fill(owner.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  const shown = notice(page, /./).first();
  await expect(shown).toBeVisible();
  const noticeBox = await box(shown);
  expect(overlaps(noticeBox, await box(page.getByRole('button', { name: 'Se connecter', exact: true })))).toBe(false);
  expect(overlaps(noticeBox, await box(page.getByRole('link', { name: /Mot de passe oublié/ })))).toBe(false);
});

test('at 1440 px with the drawer open the subject has room and "+N" stays visible', async ({ page, stack }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  // An admin sees the recipients column; a mail to two recipients shows "+1".
  const second = await createMailUser('layout-second');
  const from = `plus-${t}@example.net`;
  const id = await ingestDirect(
    plainMessage({ from, to: owner.email, subject: `E2E plus ${t}`, messageId: `plus-${t}@x.net`, spam: true }),
    { from, to: [owner.email, second.email] },
  );
  ids.push(id);
  await signInQuick(page, stack.users.admin, `/mail?q=${encodeURIComponent(`E2E layout ${t}`)}`);
  const row = page.getByTestId('quarantine-row').first();
  await expect(row).toBeVisible();
  const subject = row.getByRole('link', { name: /E2E layout/ });
  expect((await box(subject)).width).toBeGreaterThanOrEqual(240);
  // The floating feedback button has a gutter of its own: the content (the last column too) ends
  // left of it, so no row passes under it as the list scrolls.
  const content = await box(page.getByTestId('content'));
  const feedback = await box(page.getByTestId('feedback-button'));
  expect(feedback.x).toBeGreaterThanOrEqual(content.x + content.width);
  expect((await box(row)).x + (await box(row)).width).toBeLessThanOrEqual(feedback.x);
  await page.goto(`/mail?q=${encodeURIComponent(`E2E plus ${t}`)}`);
  const plus = page.getByTestId('quarantine-row').first().getByText('+1', { exact: true });
  await expect(plus).toBeVisible();
  expect(await inViewport(page, plus)).toBe(true);
});
