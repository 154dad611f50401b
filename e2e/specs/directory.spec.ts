import type { Page } from '@playwright/test';
import { directoryDown, directoryInfo, directoryUp, setGroupMembers } from '../lib/directory';
import { createMailUser, mailInfo, plainMessage, sendToHaraka, sinkMessages, tag } from '../lib/mail';
import { apiAnswer, expect, loginForm, signInUi, signOutUi, storedTokens, test } from '../lib/test';

// Issue 31: people sign in with the organisation's directory (a real OpenLDAP, scripts/ldap.sh,
// through a relay the run can cut): their account is made at the first sign-in with every address
// the directory gives in the console's domains, their role comes from its groups at each sign-in,
// and a directory that is down refuses them with a clear message while local accounts still work.

test.beforeAll(async () => {
  directoryInfo(); // fails every test here, with the reason, when the directory did not start
  await createMailUser('directory'); // makes sure example.com is one of the console's domains
});

test.afterEach(async () => {
  await directoryUp();
});

/** The signed-in user as the api sees them (role and addresses), with the page's own token. */
async function whoAmI(page: Page): Promise<{ role: string; source: string; addresses: string[] }> {
  const [access] = await storedTokens(page);
  const res = await page.request.get('/api/users/me/', { headers: { authorization: `Bearer ${access}` } });
  expect(res.status()).toBe(200);
  return res.json();
}

async function signInThroughPage(page: Page, person: { email: string; password: string }) {
  await page.goto('/login');
  const answer = apiAnswer(page, '/api/auth/login/');
  await signInUi(page, person);
  expect((await answer).status(), `sign-in of ${person.email}`).toBe(200);
  await expect(page).not.toHaveURL(/\/login/);
}

test('a directory user signs in through the page, sees the mail sent to an alias through Haraka, releases it', async ({
  page,
}) => {
  mailInfo();
  const { people, aliceAlias } = directoryInfo();
  const t = tag();
  const subject = `E2E directory alias ${t}`;
  const messageId = `directory-${t}@example.net`;
  const sender = `spammer-${t}@example.net`;
  const sent = await sendToHaraka(
    { from: sender, to: [aliceAlias] },
    plainMessage({ from: sender, to: aliceAlias, subject, messageId, spam: true }),
  );
  expect(sent.code, sent.response).toBe(250);

  await signInThroughPage(page, people.alice);
  const me = await whoAmI(page);
  expect(me).toMatchObject({ role: 'user', source: 'ldap' });
  expect(me.addresses).toEqual(expect.arrayContaining([people.alice.email, aliceAlias]));
  expect(me.addresses).not.toContain('alice@elsewhere.test'); // not a console domain

  await page.goto(`/mail?q=${encodeURIComponent(subject)}`);
  const rows = page.getByTestId('quarantine-table').getByTestId('quarantine-row');
  await expect(rows).toHaveCount(1);
  await rows.getByRole('link', { name: subject }).click();
  await expect(page.getByTestId('email-detail')).toBeVisible();
  await expect(page.getByTestId('email-recipients')).toContainText(aliceAlias);
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await page.getByTestId('email-release').click();
  const released = apiAnswer(page, `/api/quarantine/${id}/release/`);
  await page.getByTestId('email-release-confirm').click();
  expect((await released).status()).toBe(200);
  await expect(async () => {
    const copies = await sinkMessages(`<${messageId}>`);
    expect(copies.map((c) => c.envelope.rcptTo)).toEqual([[aliceAlias]]);
  }).toPass({ timeout: 15_000 });
});

test('a domain_admin by group; removed from the admins group, a person loses admin at the next sign-in', async ({
  page,
}) => {
  const { people } = directoryInfo();
  await signInThroughPage(page, people.bob);
  expect(await whoAmI(page)).toMatchObject({ role: 'domain_admin', source: 'ldap' });
  await signOutUi(page);

  await signInThroughPage(page, people.carol);
  expect((await whoAmI(page)).role).toBe('admin');
  await page.goto('/directory');
  await expect(page.getByTestId('directory-settings')).toBeVisible();
  await signOutUi(page);

  await setGroupMembers('qc-admins', ['dave']); // carol out (a groupOfNames keeps one member)
  try {
    await signInThroughPage(page, people.carol);
    expect((await whoAmI(page)).role).toBe('domain_admin');
    await page.goto('/directory');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('directory-settings')).toHaveCount(0);
  } finally {
    await setGroupMembers('qc-admins', ['carol']);
  }
});

test('the directory stopped mid-run: a clear message on the sign-in page; the local admin still signs in', async ({
  page,
  stack,
}) => {
  const { people } = directoryInfo();
  await directoryDown();
  await page.goto('/login');
  const answer = apiAnswer(page, '/api/auth/login/');
  await signInUi(page, people.alice);
  expect((await answer).status()).toBe(503);
  await expect(page.getByRole('alert')).toContainText(/annuaire/i);
  await expect(page).toHaveURL(/\/login/);

  const form = loginForm(page);
  await form.email.fill(stack.users.admin.email);
  await form.password.fill(stack.users.admin.password);
  const local = apiAnswer(page, '/api/auth/login/');
  await form.submit.click();
  expect((await local).status()).toBe(200);
  await expect(page).not.toHaveURL(/\/login/);
  await signOutUi(page);

  await directoryUp();
  await signInThroughPage(page, people.alice);
});
