import { domainToASCII } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { apiAs } from '../lib/api-client';
import { mailInfo, plainMessage, sendToHaraka, tag } from '../lib/mail';
import { stack } from '../lib/stack';
import { cancelDialog, expect, notice, pageOverflow, signInQuick, test, trackPageWidth } from '../lib/test';

// Issue 17: remote-rspamd's pages on the built console, the api's state after each step, the rule
// live in the real Rspamd (Haraka's answer to a sender it names), and the admin-only routes.

interface Filter {
  id: string;
  value: string;
  pattern_type: string;
  action: string;
  description: string;
  enabled: boolean;
}

const BASE = '/api/rspamd/filters/domains/';
/** A name between French quotes, as the pages write it (no-break spaces inside). */
const quoted = (name: string) => `«\u00a0${name}\u00a0»`;
const rowOf = (page: Page, value: string) => page.getByTestId('rule-row').filter({ hasText: value });
/** The error under the form field that holds `input`. */
const explainOf = (page: Page, input: Locator) =>
  page.locator('.ant-form-item').filter({ has: input }).locator('.ant-form-item-explain');

/** The domains filter whose value contains `q`, as the api has it (none: undefined). */
async function filterNamed(q: string): Promise<Filter | undefined> {
  const { results } = await apiAs(stack().users.admin).get<{ results: Filter[] }>(`${BASE}?q=${encodeURIComponent(q)}`);
  return results[0];
}

/** Haraka's answer (after Rspamd) to a one-line message from `from`. */
async function answerFrom(from: string): Promise<number> {
  const t = tag();
  const to = 'user@example.org';
  const answer = await sendToHaraka(
    { from, to: [to] },
    plainMessage({ from, to, subject: `rspamd filter check ${t}`, messageId: `rf-${t}@e2e.test` }),
  );
  return answer.code;
}

test('an admin creates, edits, disables and deletes a filter through the pages; the api agrees at each step', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const t = tag();
  const typed = `bücher-${t}.example`;
  const stored = domainToASCII(typed);
  await signInQuick(page, stack.users.admin, '/rspamd');
  await expect(page.getByRole('heading', { name: 'Filtres standard', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Domaines', selected: true })).toBeVisible();
  await expect(page.getByTestId('rspamd-status')).toContainText('Rspamd');

  // Create: the api checks as one types (a regex that can backtrack is refused before any save).
  await page.getByTestId('filters-new').click();
  await expect(page).toHaveURL(/\/rspamd\/domains\/create$/);
  const value = page.getByTestId('filter-value');
  await page.getByTestId('filter-pattern-type').getByText('Expression régulière', { exact: true }).click();
  await value.fill('(a+)+$');
  await expect(explainOf(page, value)).toContainText('Cette expression peut s’emballer');
  await page.getByTestId('filter-pattern-type').getByText('Exact', { exact: true }).click();
  await value.fill(typed);
  await expect(page.getByTestId('rule-stored-hint')).toHaveText(`Enregistré sous la forme\u00a0: ${stored}`);
  await expect(explainOf(page, value)).toHaveCount(0);
  await page.getByRole('radio', { name: /^Quarantaine/ }).check();
  await page.getByTestId('filter-description').fill(`e2e ${t}`);
  await page.getByTestId('rule-form-submit').click();
  await expect(notice(page, 'Filtre créé avec succès')).toBeVisible();
  await expect(page).toHaveURL(/\/rspamd\/domains$/);
  await expect(rowOf(page, stored)).toBeVisible();
  const created = await filterNamed(stored);
  expect(created).toMatchObject({ value: stored, pattern_type: 'exact', action: 'quarantine', enabled: true });

  // Edit: action and description.
  await rowOf(page, stored).getByTestId('rule-link').click();
  await expect(page).toHaveURL(new RegExp(`/rspamd/domains/edit/${created!.id}$`));
  await expect(value).toHaveValue(stored);
  await page.getByRole('radio', { name: /^Rejeter/ }).check();
  await page.getByTestId('filter-description').fill(`e2e ${t}, rejected`);
  await page.getByTestId('rule-form-submit').click();
  await expect(notice(page, 'Filtre mis à jour avec succès')).toBeVisible();
  await expect(page).toHaveURL(/\/rspamd\/domains$/);
  expect(await filterNamed(stored)).toMatchObject({
    id: created!.id,
    action: 'reject',
    description: `e2e ${t}, rejected`,
    enabled: true,
  });
  await expect(rowOf(page, stored)).toContainText('Rejeter');

  // Disable from the list.
  const toggle = rowOf(page, stored).getByRole('switch', { name: `${quoted(stored)} actif` });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect(notice(page, `${quoted(stored)} est désactivé.`)).toContainText('Filtre mis à jour avec succès');
  await expect.poll(async () => (await filterNamed(stored))?.enabled).toBe(false);

  // Delete, behind its confirmation (Cancel first: nothing deleted).
  await rowOf(page, stored)
    .getByRole('button', { name: `Supprimer ${quoted(stored)}` })
    .click();
  await cancelDialog(page);
  expect(await filterNamed(stored)).toBeDefined();
  await rowOf(page, stored)
    .getByRole('button', { name: `Supprimer ${quoted(stored)}` })
    .click();
  await page.getByTestId('rule-delete-confirm').click();
  await expect(notice(page, 'Filtre supprimé avec succès')).toBeVisible();
  await expect(rowOf(page, stored)).toHaveCount(0);
  expect(await filterNamed(stored)).toBeUndefined();
  await apiAs(stack.users.admin).get(`${BASE}${created!.id}/`, 404);
});

test('a filter saved in the pages goes live in the real Rspamd: its sender is refused, then delivered once disabled', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  mailInfo(); // fails with the reason when the mail stack did not start
  const domain = `rejected-${tag()}.example`;
  const sender = `someone@${domain}`;
  expect(await answerFrom(sender), 'before the filter exists').toBe(250);

  await signInQuick(page, stack.users.admin, '/rspamd/domains/create');
  await page.getByTestId('filter-value').fill(domain);
  await page.getByRole('radio', { name: /^Rejeter/ }).check();
  await page.getByTestId('filter-description').fill('e2e: live in Rspamd');
  await page.getByTestId('rule-form-submit').click();
  await expect(page).toHaveURL(/\/rspamd\/domains$/);
  // Rspamd fetches the list again within seconds (map_watch_interval 1 s here): the status says so.
  await expect(page.getByTestId('rspamd-status-live')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => answerFrom(sender), { timeout: 30_000, intervals: [1000] }).toBeGreaterThanOrEqual(500);

  await rowOf(page, domain).getByRole('switch').click();
  await expect(notice(page, `${quoted(domain)} est désactivé.`)).toBeVisible();
  await expect.poll(() => answerFrom(sender), { timeout: 30_000, intervals: [1000] }).toBe(250);
  await expect(page.getByTestId('rspamd-status-live')).toBeVisible({ timeout: 30_000 });

  const found = await filterNamed(domain);
  await apiAs(stack.users.admin).del(`${BASE}${found!.id}/`);
});

test('on a phone (390 px) the lists and the form fit the screen: one stacked cell per rule, its switch in reach', async ({
  page,
  stack,
}) => {
  const admin = apiAs(stack.users.admin);
  const value = `phone-${tag()}.example`;
  const made = await admin.post<Filter>(
    BASE,
    { value, pattern_type: 'exact', action: 'quarantine', description: 'A filter seen on a phone' },
    201,
  );
  await page.setViewportSize({ width: 390, height: 844 });
  // Also while loading: the shell once drew a phone as a desktop for a few frames (470 px wide).
  await trackPageWidth(page);
  const fits = async (what: string) => {
    const { width, widest, offenders } = await pageOverflow(page);
    expect(width, `${what}: ${offenders.join('; ')}`).toBeLessThanOrEqual(390);
    expect(widest, `${what}, while loading`).toBeLessThanOrEqual(390);
  };
  await signInQuick(page, stack.users.admin, `/rspamd/domains?q=${value}`);
  const cell = page.getByTestId('rule-summary');
  await expect(cell).toHaveCount(1);
  await expect(cell.getByRole('link', { name: value })).toBeVisible();
  // The row's controls are within the screen's width (not behind a sideways scroll).
  for (const control of [cell.getByRole('switch'), cell.getByRole('button', { name: /^Supprimer/ })]) {
    await control.scrollIntoViewIfNeeded();
    const box = (await control.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await fits('the filters list');
  for (const path of ['/rspamd/domains/create', '/rspamd/apanel-filters', '/rspamd/system-rules/create']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await fits(path);
  }
  await admin.del(`${BASE}${made.id}/`);
});

// Spec §2's admin-only routes (and the system rules' create/edit in the same style).
const RSPAMD_ROUTES = [
  '/rspamd',
  '/rspamd/domains',
  '/rspamd/ips',
  '/rspamd/users',
  '/rspamd/special',
  '/rspamd/domains/create',
  '/rspamd/special/edit/1',
  '/rspamd/apanel-filters',
  '/rspamd/apanel-filters/create',
  '/rspamd/apanel-filters/edit/1',
  '/rspamd/system-rules',
  '/rspamd/system-rules/create',
  '/rspamd/system-rules/edit/1',
];

for (const who of ['domainAdmin', 'user'] as const) {
  test(`a ${who === 'user' ? 'user' : 'domain_admin'} is sent to /dashboard from every rspamd route and never downloads remote-rspamd code`, async ({
    page,
    stack,
  }) => {
    test.setTimeout(90_000);
    const rspamdFiles: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/remotes/remote-rspamd/')) rspamdFiles.push(r.url());
    });
    await signInQuick(page, stack.users[who], '/dashboard');
    await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await expect(nav.getByRole('menuitem', { name: 'Filtres' })).toHaveCount(0);
    for (const path of RSPAMD_ROUTES) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/dashboard$/);
      await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    expect(rspamdFiles, 'remote-rspamd files requested').toEqual([]);
  });
}
