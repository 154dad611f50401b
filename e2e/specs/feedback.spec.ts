import type { Page } from '@playwright/test';
import { solidPng } from '../lib/png';
import { apiAnswer, expect, notice, signInQuick, test } from '../lib/test';
import { createUser } from '../lib/users';

// Spec §2–§5, §8 (feedback button and dialog on every protected page; admin /feedback), DESIGN §4
// (POST /api/feedback/ multipart, images sniffed by content), §7 (images shown as data: URLs).

const NOT_IMAGE = 'Veuillez joindre uniquement des images';

async function attach(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('feedback-add-image').click();
  await (await chooser).setFiles(file);
}

test('feedback with a real PNG reaches the admin page with its image; bad input is refused', async ({
  page,
  stack,
}) => {
  const user = await createUser('feedback');
  await signInQuick(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByTestId('feedback-button').click();
  const dialog = page.getByTestId('feedback-dialog');
  await expect(dialog).toHaveAttribute('data-status', 'open');
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/feedback/') sent.push(r.url());
  });

  // Too short a message: said on the field, nothing sent.
  await page.getByTestId('feedback-type').getByText('Bug', { exact: true }).click();
  await page.getByTestId('feedback-message').fill('Court');
  await page.getByTestId('feedback-submit').click();
  await expect(dialog.getByText('Le message doit contenir au moins 10 caractères')).toBeVisible();
  expect(sent, 'POST /api/feedback/ for a short message').toEqual([]);

  const message = `E2E feedback ${Date.now()}: the release button stays disabled after a reload.`;
  await page.getByTestId('feedback-message').fill(message);
  await page.getByTestId('feedback-email').fill(user.email);

  // An SVG is not one of the accepted images: refused in the dialog, not added.
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';
  await attach(page, { name: 'drawing.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
  await expect(page.getByTestId('feedback-images-error')).toHaveText(NOT_IMAGE);
  await expect(dialog.locator('.ant-upload-list-item')).toHaveCount(0);

  // Text named .png and declared image/png: the api sniffs the bytes and refuses it (400), the
  // dialog says why in French and keeps the form.
  await attach(page, { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text, not a PNG\n') });
  await expect(dialog.locator('.ant-upload-list-item')).toHaveCount(1);
  let answer = apiAnswer(page, '/api/feedback/');
  await page.getByTestId('feedback-submit').click();
  expect((await answer).status()).toBe(400);
  await expect(notice(page, NOT_IMAGE)).toBeVisible();
  await expect(dialog).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('feedback-message')).toHaveValue(message);

  // Swap it for a real PNG and send.
  await dialog.locator('.ant-upload-list-item').filter({ hasText: 'notes.png' }).getByRole('button').last().click();
  await expect(dialog.locator('.ant-upload-list-item')).toHaveCount(0);
  await attach(page, { name: 'screenshot.png', mimeType: 'image/png', buffer: solidPng(12, 8, [220, 40, 40]) });
  await expect(dialog.locator('.ant-upload-list-item').filter({ hasText: 'screenshot.png' })).toBeVisible();
  answer = apiAnswer(page, '/api/feedback/');
  await page.getByTestId('feedback-submit').click();
  expect((await answer).status()).toBe(201);
  await expect(page.getByTestId('feedback-success')).toContainText('Merci pour votre avis !');
  await expect(dialog).toHaveAttribute('data-status', 'success');
  await expect(dialog).toBeHidden(); // closes by itself (spec §4: after 2 s)

  // The admin sees it, from that user, with the image as sent.
  await signInQuick(page, stack.users.admin, '/feedback');
  await expect(page.getByTestId('feedback-page')).toBeVisible();
  const item = page.getByTestId('feedback-item').filter({ hasText: message });
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('feedback-item-type')).toHaveText('Bug');
  await expect(item).toContainText(user.email);
  await expect(item.getByTestId('feedback-image')).toBeVisible();
  const image = item.getByRole('img', { name: 'Capture 1 de l’avis', exact: true });
  await expect(image).toHaveCount(1);
  await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth, img.naturalHeight]))
    .toEqual([true, 12, 8]);
});
