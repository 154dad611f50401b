import type { Page } from '@playwright/test';
import { apiAs } from '../lib/api-client';
import { mailInfo, plainMessage, sendToHaraka, sinkMessages, tag } from '../lib/mail';
import { expect, loginForm, signInQuick, signInUi, test } from '../lib/test';
import { createUser } from '../lib/users';

// Issue 16: user and domain administration in remote-admin, end to end on the built console, and
// the real Haraka accepting exactly the console's domains.

const nav = (page: Page) => page.getByRole('navigation', { name: 'Navigation principale' });

/** Creates a domain through /domains/new; returns its page's URL path. */
async function createDomainUi(page: Page, name: string): Promise<string> {
  await page.goto('/domains/new');
  await page.getByTestId('new-domain-name').fill(name);
  await page.getByTestId('new-domain-submit').click();
  await expect(page.getByTestId('domain-page')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
  return new URL(page.url()).pathname;
}

/** Picks `text` in the antd Select whose input has this test id. */
async function choose(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByTestId(testId).getByRole('combobox').fill(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
}

/** The text of a message whose body is quoted-printable (nodemailer's choice for these e-mails). */
const quotedPrintable = (raw: Buffer | undefined) =>
  raw
    ?.toString('utf8')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The SMTP answer of Haraka to a one-line message for `to`. */
async function smtpAnswerFor(to: string): Promise<number> {
  const t = tag();
  const answer = await sendToHaraka(
    { from: `sender-${t}@example.net`, to: [to] },
    plainMessage({
      from: `sender-${t}@example.net`,
      to,
      subject: `domain check ${t}`,
      messageId: `dc-${t}@example.net`,
    }),
  );
  return answer.code;
}

test('an admin creates a domain and invites a user through the pages; the user sets a password and signs in', async ({
  page,
  browser,
  stack,
}) => {
  const t = tag();
  const domain = `e2e-${t}.example`;
  const email = `newbie-${t}@${domain}`;
  await signInQuick(page, stack.users.admin, '/domains');
  await expect(page.getByRole('heading', { name: 'Domaines', exact: true })).toBeVisible();
  await createDomainUi(page, domain);

  await nav(page).getByRole('link', { name: 'Utilisateurs' }).click();
  await expect(page.getByRole('heading', { name: 'Utilisateurs', exact: true })).toBeVisible();
  await page.getByTestId('users-new').click();
  await expect(page.getByTestId('new-user-page')).toBeVisible();
  // An invalid address is refused on the field before anything is sent.
  await page.getByTestId('new-user-email').fill('not-an-address');
  await page.getByTestId('new-user-submit').click();
  await expect(page.getByTestId('new-user-form')).toContainText(/adresse e-mail.*(valide|invalide)|format/i);
  await page.getByTestId('new-user-email').fill(email);
  await choose(page, 'new-user-domain', domain);
  await page.getByRole('radio', { name: 'Envoyer une invitation' }).check();
  await page.getByTestId('new-user-submit').click();
  await expect(page.getByTestId('user-page')).toBeVisible();
  await expect(page.getByTestId('user-invitation')).toBeVisible();

  // The invitation reached the SMTP sink; its link opens the console's page, whose POST sets the password.
  let link = '';
  await expect
    .poll(async () => {
      const [mail] = await sinkMessages(email);
      link = /https?:\/\/[^\s"<>]+\/invitation\?token=[\w-]+/.exec(quotedPrintable(mail?.raw) ?? '')?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  const context = await browser.newContext();
  const invited = await context.newPage();
  await invited.goto(link);
  const password = `Invited-pass-${t}`;
  await invited.getByTestId('invitation-password').fill(password);
  await invited.getByTestId('invitation-confirm').fill(password);
  await invited.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(invited).toHaveURL(/\/login/);
  await signInUi(invited, { email, password });
  await expect(invited).toHaveURL(/\/dashboard/);
  // The link is single use.
  await invited.goto(link);
  await invited.getByTestId('invitation-password').fill(password);
  await invited.getByTestId('invitation-confirm').fill(password);
  await invited.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(invited.getByTestId('invitation-problem')).toBeVisible();
  await context.close();

  // The admin's page now shows the account as active with no pending invitation.
  await page.reload();
  await expect(page.getByTestId('user-page')).toBeVisible();
  await expect(page.getByTestId('user-invitation')).toHaveCount(0);
});

test("a domain_admin sees only their domain's users and cannot open another domain's", async ({ page, stack }) => {
  const other = await createUser('elsewhere', 'user', `other-${tag()}.example`);
  const mine = await createUser('mine', 'user', 'example.org');
  const admin = apiAs(stack.users.admin);
  const found = await admin.get<{ results: { id: string; email: string }[] }>(
    `/api/users/?q=${encodeURIComponent(other.email)}`,
  );
  const otherId = found.results[0]!.id;

  await signInQuick(page, stack.users.domainAdmin, '/users');
  await expect(page.getByRole('heading', { name: 'Utilisateurs', exact: true })).toBeVisible();
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  // Every row is of their domain; the domains entry is not theirs.
  const emails = await page.getByTestId('user-link').allTextContents();
  expect(emails.length).toBeGreaterThan(0);
  for (const e of emails) expect(e).toMatch(/@example\.org$/);
  await expect(nav(page).getByRole('link', { name: 'Domaines' })).toHaveCount(0);

  await page.getByTestId('users-filter-q').fill(mine.email);
  await expect(page.getByTestId('user-link')).toHaveText([mine.email]);
  await page.getByTestId('users-filter-q').fill(other.email);
  await expect(page.getByTestId('user-row')).toHaveCount(0);

  await page.goto(`/users/${otherId}`);
  await expect(page.getByTestId('user-not-found')).toBeVisible();
  await page.goto('/domains');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a user visiting /users lands on /dashboard, and never downloads remote-admin code', async ({ page, stack }) => {
  const adminFiles: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/remotes/remote-admin/')) adminFiles.push(r.url());
  });
  await signInQuick(page, stack.users.user, '/users');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Utilisateurs' })).toHaveCount(0);
  await page.goto('/domains/new');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.waitForLoadState('networkidle');
  expect(adminFiles, 'remote-admin files requested by a user').toEqual([]);
});

test('remote-admin down: its pages show the translated fallback and the rest of the console works', async ({
  page,
  stack,
}) => {
  const REMOTE = '**/remotes/remote-admin/**';
  await page.route(REMOTE, (route) => route.abort('connectionrefused'));
  await signInQuick(page, stack.users.admin, '/users');
  const failure = page.getByTestId('remote-load-error');
  await expect(failure).toContainText('Ce module n’a pas pu être chargé');
  await nav(page).getByRole('link', { name: 'Tableau de bord' }).click();
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await page.unroute(REMOTE);
  await nav(page).getByRole('link', { name: 'Domaines' }).click();
  await expect(page.getByRole('heading', { name: 'Domaines', exact: true })).toBeVisible();
});

test('the real Haraka accepts mail for a domain created in the console and refuses it once deleted', async ({
  page,
  stack,
}) => {
  test.setTimeout(90_000);
  mailInfo(); // fails with the reason when the mail stack did not start
  const domain = `mx-${tag()}.example`;
  const rcpt = `someone@${domain}`;
  expect(await smtpAnswerFor(rcpt), 'before the domain exists').toBe(550);

  await signInQuick(page, stack.users.admin, '/domains');
  const domainPath = await createDomainUi(page, domain);
  await expect.poll(() => smtpAnswerFor(rcpt), { timeout: 30_000, intervals: [500] }).toBe(250);

  await page.goto(domainPath);
  await page.getByTestId('domain-delete').click();
  await page.getByTestId('domain-delete-confirm').click();
  await expect(page).toHaveURL(/\/domains$/);
  await expect.poll(() => smtpAnswerFor(rcpt), { timeout: 30_000, intervals: [1000] }).toBe(550);
});

test('deleting a domain that has users is refused with the reason', async ({ page, stack }) => {
  const domain = `busy-${tag()}.example`;
  await createUser('busy', 'user', domain);
  const admin = apiAs(stack.users.admin);
  const list = await admin.get<{ results: { id: string; name: string }[] }>(`/api/domains/?q=${domain}`);
  await signInQuick(page, stack.users.admin, `/domains/${list.results[0]!.id}`);
  await expect(page.getByTestId('domain-users')).toContainText(`@${domain}`);
  await page.getByTestId('domain-delete').click();
  const confirm = page.getByTestId('domain-delete-confirm');
  if (await confirm.isVisible()) await confirm.click();
  await expect(page.getByTestId('domain-delete-refused')).toContainText(
    'Impossible de supprimer un domaine ayant des utilisateurs',
  );
  expect((await admin.get<{ results: unknown[] }>(`/api/domains/?q=${domain}`)).results).toHaveLength(1);
  await expect(loginForm(page).email).toHaveCount(0);
});
