import type { Page } from '@playwright/test';
import { apiAs } from '../lib/api-client';
import { expect, setRemotes, signInQuick, test } from '../lib/test';

// DESIGN §3: runtime remotes from /remotes.json; one boundary per remote handling both "did not
// load" and "threw while rendering", each with Retry; moving a remote needs no host rebuild.
// These specs rewrite the shared remotes file: the suite runs on one worker, and each spec
// restores the file afterwards.

test.afterEach(async ({ page, stack }) => {
  await setRemotes(page, stack.defaultRemotes);
});

test('remote down: the boundary offers Retry, which recovers without a page reload', async ({ page, stack }) => {
  const REMOTE = '**/remotes/remote-mail/**';
  await page.route(REMOTE, (route) => route.abort('connectionrefused'));
  await signInQuick(page, stack.users.user);

  const failure = page.getByTestId('remote-load-error');
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('Ce module n’a pas pu être chargé');
  // The shell around it still works.
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible();
  await expect(page.getByTestId('dashboard-count-pending')).toHaveCount(0);

  // A marker on window survives only if the page is not reloaded.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.unroute(REMOTE);
  await failure.getByRole('button', { name: 'Réessayer' }).click();
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await expect(failure).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test('a host page whose chunk cannot be fetched (server gone): the same boundary, and Retry recovers', async ({
  page,
  stack,
}) => {
  await signInQuick(page, stack.users.user);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  // Every script not fetched yet (the settings page's chunk among them) fails, as with the server down.
  const HOST_SCRIPTS = (url: URL) => url.pathname.endsWith('.js') && !url.pathname.startsWith('/remotes/');
  await page.route(HOST_SCRIPTS, (route) => route.abort('connectionrefused'));
  await page
    .getByRole('navigation', { name: 'Navigation principale' })
    .getByRole('link', { name: 'Paramètres' })
    .click();
  const failure = page.getByTestId('remote-load-error');
  await expect(failure).toContainText('Ce module n’a pas pu être chargé');
  await expect(failure).toContainText('Paramètres');
  await expect(page.getByTestId('route-error')).toHaveCount(0);
  await page.unroute(HOST_SCRIPTS);
  await failure.getByRole('button', { name: 'Réessayer' }).click();
  await expect(page.getByTestId('settings-page')).toBeVisible();
});

test('remote throwing while rendering: the boundary shows the error with Retry', async ({ page, stack }) => {
  await setRemotes(page, { remote_mail: stack.throwingManifest });
  const fromOther: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(stack.otherOrigin)) fromOther.push(new URL(r.url()).pathname);
  });
  await signInQuick(page, stack.users.user);

  const failure = page.getByTestId('remote-render-error');
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('Ce module a rencontré une erreur');
  await expect(page.getByTestId('remote-load-error')).toHaveCount(0);
  expect(fromOther).toContain('/throws/remoteEntry.js');
  // Retry renders the module again: it throws again, and the boundary catches it again.
  await failure.getByRole('button', { name: 'Réessayer' }).click();
  await expect(page.getByTestId('remote-render-error')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible();
});

test('a remote moved to another origin is loaded from there, with no host rebuild', async ({
  page,
  stack,
  seeded: _seeded, // seeded mail, so the count it shows is not just an empty default
}) => {
  await signInQuick(page, stack.users.user);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  const hostScripts = await hostScriptTags(page);

  await setRemotes(page, { remote_mail: stack.movedManifest });
  const remoteRequests: URL[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.includes('/remote-mail/') || u.pathname.endsWith('remoteEntry.js')) remoteRequests.push(u);
  });
  const res = await page.reload();

  // The api added the new origin to the console's CSP (scripts and fetches).
  const csp = res!.headers()['content-security-policy'] ?? '';
  const other = new URL(stack.otherOrigin);
  for (const directive of ['script-src', 'connect-src']) {
    const values = csp.split(';').find((d) => d.trim().startsWith(directive)) ?? '';
    expect(values, `${directive} allows ${other.origin}`).toContain(other.host);
  }

  // The moved remote shows the api's figure (read now: earlier specs changed the seeded mail).
  const dashboard = await apiAs(stack.users.user).get<{ pending: number }>('/api/dashboard/');
  await expect(page.getByTestId('dashboard-count-pending')).toHaveText(String(dashboard.pending));
  const entry = remoteRequests.find((u) => u.pathname.endsWith('/remoteEntry.js'));
  expect(entry?.host, 'remoteEntry.js came from the new origin').toBe(other.host);
  expect(
    remoteRequests.filter((u) => u.host !== other.host).map(String),
    'nothing of remote-mail from the old place',
  ).toEqual([]);
  // Same host bundle as before: nothing was rebuilt.
  expect(await hostScriptTags(page)).toEqual(hostScripts);
});

/** The host's own script tags: a remote's lazy chunk (e.g. the dashboard's chart) may be in the page
 * for a moment while webpack loads it, so those are left out. */
async function hostScriptTags(page: Page): Promise<string[]> {
  const srcs = await page.locator('script[src]').evaluateAll((els) => els.map((e) => e.getAttribute('src') ?? ''));
  return srcs.filter((src) => src.startsWith('/') && !src.startsWith('//') && !src.startsWith('/remotes/'));
}

test('nothing of a remote is downloaded before its route is visited', async ({ page, stack }) => {
  const remoteFiles: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname.startsWith('/remotes/')) remoteFiles.push(pathname);
  });
  await signInQuick(page, stack.users.admin, '/profile');
  await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(remoteFiles, 'remote files fetched on a host page').toEqual([]);

  await page.getByRole('navigation', { name: 'Navigation principale' }).getByText('Tableau de bord').click();
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  expect(remoteFiles).toContain('/remotes/remote-mail/remoteEntry.js');
});
