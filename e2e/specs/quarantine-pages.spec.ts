import type { Locator, Page } from '@playwright/test';
import { axeFindings, iconNamedControls } from '../lib/a11y';
import { apiAs } from '../lib/api-client';
import { createMailUser, discardHeldMail, ingestDirect, mailInfo, plainMessage, sinkMessages, tag } from '../lib/mail';
import { saveDarkTheme } from '../lib/seed';
import type { SeedUser } from '../lib/stack';
import { apiAnswer, cancelDialog, expect, notice, signInQuick, test } from '../lib/test';
import { createUser } from '../lib/users';

// The quarantine list's bulk actions, the History page, the Statistics page and the dashboard's
// trend, in the browser against the real api (and its SMTP relay, the e2e sink). One story, in
// order: bulk delete → bulk release with failures → the history of both → the statistics.
//
// Its users live in a domain of their own (created by the CLI), so no seeded account's counters or
// history change; what it leaves held (nothing, unless a test failed half-way) is deleted at the
// end, so the admin's pending count is the seeded one again (session.spec.ts checks it).
test.describe.configure({ mode: 'serial' });

interface Mail {
  n: number;
  id: string;
  subject: string;
  messageId: string;
}
type Status = 'pending' | 'releasing' | 'released' | 'release_failed' | 'release_unknown' | 'deleted';
interface BulkResult {
  id: string;
  status: string;
  code?: string;
}
interface HistoryEntry {
  id: string;
  action: 'download' | 'release' | 'delete';
  email_id: string;
  result: 'success' | 'failure';
  code: string | null;
  user: { email: string };
}
interface Statistics {
  range: { from: string; to: string };
  days: { date: string; quarantined: number; released: number; deleted: number }[];
  totals: { quarantined: number; released: number; deleted: number };
  risk: { low: number; medium: number; high: number; critical: number };
}

let t: string; // unique to a run of this file: subjects, Message-IDs and the users' domain
let owner: SeedUser; // the one who acts
let other: SeedUser; // a plain user of the same domain
let domainAdmin: SeedUser; // the domain admin of that domain
const mails: Mail[] = []; // the owner's, m(1) … m(6)
const m = (n: number) => mails[n - 1]!;

test.beforeAll(async () => {
  mailInfo(); // the release relay is the mail harness's sink: fail with the reason when it is absent
  t = tag();
  const DOMAIN = `pages-${t}.example.org`;
  mails.length = 0;
  [owner, other, domainAdmin] = await Promise.all([
    createUser('pages-owner', 'user', DOMAIN),
    createUser('pages-other', 'user', DOMAIN),
    createUser('pages-domadmin', 'domain_admin', DOMAIN),
  ]);
  // Scores in every risk band (low < 5 ≤ medium < 10 ≤ high < 15 ≤ critical).
  const scores = [3, 7, 12, 20, 16, 8];
  for (const [i, score] of scores.entries()) {
    const n = i + 1;
    const subject = `E2E pages ${t} #${n}`;
    const messageId = `pages-${n}-${t}@example.net`;
    const from = `spammer-${n}-${t}@example.net`;
    const raw = plainMessage({ from, to: owner.email, subject, messageId, spam: true });
    mails.push({ n, subject, messageId, id: await ingestDirect(raw, { from, to: [owner.email], score }) });
  }
  // The other user has a history of their own: one of their mails, deleted.
  const from = `spammer-other-${t}@example.net`;
  const otherRaw = plainMessage({ from, to: other.email, subject: `E2E other ${t}`, messageId: `o-${t}@x.net` });
  const otherId = await ingestDirect(otherRaw, { from, to: [other.email] });
  await apiAs(other).del(`/api/quarantine/${otherId}/`);
});

test.afterAll(async () => {
  // Nothing is held after a full run; after a failure, the admin's pending count is restored.
  if (owner) await discardHeldMail(owner.email);
});

const EMPTY_LIST = 'Aucun e-mail ne correspond à ces filtres.';

async function statusOf(id: string): Promise<Status> {
  return (await apiAs(owner).get<{ status: Status }>(`/api/quarantine/${id}/`)).status;
}

const rowOf = (page: Page, mail: Mail) =>
  page.getByTestId('quarantine-table').getByTestId('quarantine-row').filter({ hasText: mail.subject });
const checkboxOf = (page: Page, mail: Mail) => page.getByRole('checkbox', { name: `Sélectionner « ${mail.subject} »` });

/**
 * The bulk calls the page makes: every request (none while a confirmation is cancelled), and the
 * answers other than a 401 (one per call: a call refused for an expired access token is sent again
 * after the silent refresh). The ids sent are read from the answer (one result per id).
 */
function bulkCalls(page: Page) {
  const calls = { requests: 0, answers: 0 };
  const isBulk = (url: string) => new URL(url).pathname === '/api/quarantine/bulk/';
  page.on('request', (r) => {
    if (isBulk(r.url())) calls.requests++;
  });
  page.on('response', (r) => {
    if (isBulk(r.url()) && r.status() !== 401) calls.answers++;
  });
  return calls;
}

test('bulk delete: Cancel in the confirmation changes nothing, confirming deletes the selected rows', async ({
  page,
}) => {
  const calls = bulkCalls(page);
  await signInQuick(page, owner, '/mail');
  const rows = page.getByTestId('quarantine-table').getByTestId('quarantine-row');
  await expect(rows).toHaveCount(6);
  const release = page.getByTestId('quarantine-bulk-release');
  const remove = page.getByTestId('quarantine-bulk-delete');
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveText('Supprimer (0)');

  await checkboxOf(page, m(1)).check();
  await checkboxOf(page, m(2)).check();
  await expect(remove).toBeEnabled();
  await expect(remove).toHaveText('Supprimer (2)');
  await expect(release).toHaveText('Libérer (2)');

  // Cancel: no call, nothing changed, the selection kept.
  await remove.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Supprimer les 2 e-mails sélectionnés ?');
  await expect(dialog).toContainText('Ils ne pourront plus être libérés.');
  await cancelDialog(page);
  await expect(rows).toHaveCount(6);
  await expect(checkboxOf(page, m(1))).toBeChecked();
  await expect(checkboxOf(page, m(2))).toBeChecked();
  expect(calls.requests, 'bulk calls after Cancel').toBe(0);
  expect([await statusOf(m(1).id), await statusOf(m(2).id)]).toEqual(['pending', 'pending']);

  // Confirm: one call with exactly the two ids, both deleted.
  await remove.click();
  await expect(dialog).toBeVisible();
  const answer = apiAnswer(page, '/api/quarantine/bulk/');
  await dialog.getByTestId('quarantine-bulk-confirm').click();
  const res = await answer;
  expect(res.status()).toBe(200);
  const { results } = (await res.json()) as { results: BulkResult[] };
  expect(results).toHaveLength(2);
  expect(results).toEqual(
    expect.arrayContaining([
      { id: m(1).id, status: 'deleted' },
      { id: m(2).id, status: 'deleted' },
    ]),
  );
  const done = notice(page, '2 e-mails supprimés');
  await expect(done).toBeVisible();
  await expect(done).toHaveAttribute('data-notice-type', 'success');
  await expect(dialog).toBeHidden();

  // The list follows (they left the pending list), the selection is cleared.
  await expect(rows).toHaveCount(4);
  await expect(rowOf(page, m(1))).toHaveCount(0);
  await expect(rowOf(page, m(2))).toHaveCount(0);
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveText('Supprimer (0)');
  expect(calls.answers).toBe(1);

  // The api agrees: those two deleted, the others still held.
  expect(await Promise.all(mails.map((x) => statusOf(x.id)))).toEqual([
    'deleted',
    'deleted',
    'pending',
    'pending',
    'pending',
    'pending',
  ]);
});

test('bulk release with a partial failure: released ones and failed ones (with the reason) shown as such', async ({
  page,
}) => {
  const calls = bulkCalls(page);
  await signInQuick(page, owner, '/mail');
  const rows = page.getByTestId('quarantine-table').getByTestId('quarantine-row');
  await expect(rows).toHaveCount(4);
  for (const n of [3, 4, 5, 6]) await checkboxOf(page, m(n)).check();
  const release = page.getByTestId('quarantine-bulk-release');
  await expect(release).toHaveText('Libérer (4)');
  await release.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Libérer les 4 e-mails sélectionnés ?');
  await expect(dialog).toContainText('Chacun sera remis aux destinataires dont vous avez la charge.');

  // While the dialog is open, elsewhere: #4 deleted, #6 released on its own (one copy at the relay).
  const api = apiAs(owner);
  await api.del(`/api/quarantine/${m(4).id}/`);
  expect((await api.post<{ status: string }>(`/api/quarantine/${m(6).id}/release/`)).status).toBe('released');
  await expect.poll(async () => (await sinkMessages(`<${m(6).messageId}>`)).length).toBe(1);

  const answer = apiAnswer(page, '/api/quarantine/bulk/');
  await dialog.getByTestId('quarantine-bulk-confirm').click();
  const res = await answer;
  expect(res.status()).toBe(200);
  const { results } = (await res.json()) as { results: BulkResult[] };
  expect(results).toHaveLength(4);
  expect(results).toEqual(
    expect.arrayContaining([
      { id: m(3).id, status: 'released' },
      { id: m(5).id, status: 'released' },
      { id: m(4).id, status: 'failed', code: 'email_deleted' },
      { id: m(6).id, status: 'failed', code: 'already_released' },
    ]),
  );
  expect(calls.answers).toBe(1);

  // One warning above the list, open until closed: the count of each, and each failed e-mail named
  // by its subject with its reason in words.
  const summary = page.getByTestId('quarantine-bulk-result');
  await expect(summary).toBeVisible();
  await expect(summary).toHaveClass(/ant-alert-warning/);
  await expect(summary).toHaveAttribute('role', 'alert');
  await expect(summary).toContainText('2 libérés, 2 en échec');
  await expect(summary).toContainText(`« ${m(4).subject} » : Cet e-mail a été supprimé.`);
  await expect(summary).toContainText(`« ${m(6).subject} » : Cet e-mail a déjà été libéré.`);
  await expect(summary).not.toContainText(m(3).subject);
  await expect(summary).not.toContainText(m(5).subject);
  await expect(notice(page, '2 libérés, 2 en échec')).toHaveCount(0);
  // The outcome meets WCAG A/AA like the rest of the page (a11y.spec.ts checks the pages; this
  // outcome needs the mail of this story).
  await expect(page.getByRole('dialog')).toHaveCount(0); // its button's spinner is antd's, while it closes
  expect(await axeFindings(page, '[data-testid="quarantine-bulk-result"]')).toEqual([]);
  expect(await iconNamedControls(page)).toEqual([]);

  // Nothing is held any more; "all statuses" shows what became of each row.
  await expect(rows).toHaveCount(0);
  await expect(page.getByText(EMPTY_LIST)).toBeVisible();
  await page.goto('/mail?status=all');
  await expect(rows).toHaveCount(6);
  for (const n of [3, 5, 6]) await expect(rowOf(page, m(n))).toContainText('Libéré');
  for (const n of [1, 2, 4]) await expect(rowOf(page, m(n))).toContainText('Supprimé');
  for (const n of [1, 2, 3, 4, 5, 6]) await expect(checkboxOf(page, m(n))).toBeDisabled();

  // The api and the relay agree: one copy each of #3, #5 and #6 (not a second one), none of #4.
  expect(await Promise.all(mails.map((x) => statusOf(x.id)))).toEqual([
    'deleted',
    'deleted',
    'released',
    'deleted',
    'released',
    'released',
  ]);
  const copies = async () =>
    Promise.all([3, 4, 5, 6].map(async (n) => (await sinkMessages(`<${m(n).messageId}>`)).length));
  await expect.poll(copies).toEqual([1, 0, 1, 1]);
  const [copy] = await sinkMessages(`<${m(3).messageId}>`);
  expect(copy!.raw.toString('latin1')).toMatch(new RegExp(`^X-Quarantine-Released: \\S+ by ${owner.email}\\r\\n`));
  expect(copy!.envelope.rcptTo).toEqual([owner.email]);
});

// ---------------------------------------------------------------------------------------------
// History

/** The rows shown: [user, action, e-mail (its subject), result], in the page’s order. */
/** The rows as "user | action | e-mail | result", read by column name. */
async function historyRows(page: Page) {
  const table = page.getByTestId('history-table');
  const headers = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  const at = (name: string) => headers.indexOf(name);
  const columns = { user: at('Utilisateur'), action: at('Action'), email: at('Objet') };
  return table.getByTestId('history-row').evaluateAll(
    (trs, c) =>
      trs.map((tr) => {
        // A cell's text without its controls (the subject cell holds the "Apprendre" menu, issue 18).
        const cells = Array.from(tr.querySelectorAll('td')).map((td) => {
          const copy = td.cloneNode(true) as HTMLElement;
          copy.querySelectorAll('[data-testid="history-learn"]').forEach((el) => el.remove());
          return copy.textContent?.trim() ?? '';
        });
        const result = tr.querySelector('[data-testid="history-result"]')?.textContent?.trim() ?? '';
        return [cells[c.user], cells[c.action], cells[c.email], result].join(' | ');
      }),
    columns,
  );
}

/** Waits for the history's next answer (one per filter change), then for the rows to match it. */
async function shownHistory(page: Page, change: () => Promise<unknown>): Promise<HistoryEntry[]> {
  const answer = apiAnswer(page, '/api/history/', 'GET');
  await change();
  const res = await answer;
  expect(res.status()).toBe(200);
  const { results } = (await res.json()) as { results: HistoryEntry[] };
  const rows = page.getByTestId('history-table').getByTestId('history-row');
  if (results.length) await expect(rows).toHaveCount(results.length);
  else await expect(page.getByText('Aucune entrée de l’historique ne correspond à ces filtres.')).toBeVisible();
  return results;
}

const ACTION_FR = { download: 'Téléchargement', release: 'Libération', delete: 'Suppression' } as const;
const RESULT_FR = { success: 'Succès', failure: 'Échec' } as const;
// The e-mail by its subject: every viewer here may see the mails of these lines.
const line = (user: SeedUser, action: keyof typeof ACTION_FR, mail: Mail, result: keyof typeof RESULT_FR) =>
  [user.email, ACTION_FR[action], mail.subject, RESULT_FR[result]].join(' | ');

/** Picks `option` in the antd Select labelled `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .click();
}

test('History: the actions with their results and links, filtered by action, scoped by user and domain', async ({
  page,
  stack,
}) => {
  const ownerLines = [
    line(owner, 'delete', m(1), 'success'),
    line(owner, 'delete', m(2), 'success'),
    line(owner, 'delete', m(4), 'success'),
    line(owner, 'release', m(6), 'success'),
    line(owner, 'release', m(3), 'success'),
    line(owner, 'release', m(5), 'success'),
    line(owner, 'release', m(4), 'failure'),
    line(owner, 'release', m(6), 'failure'),
  ];
  // Their account's creation (by the CLI) is theirs to read too (issue 16: changes to one's account).
  const accountLine = ['cli', 'Création d’utilisateur', `Utilisateur\u00a0: ${owner.email}`, 'Succès'].join(' | ');
  const history = page.getByTestId('history-page');
  await shownHistory(page, () => signInQuick(page, owner, '/history'));
  await expect(history.getByRole('heading', { name: 'Historique' })).toBeVisible();
  // Who acted is a column for every role: a user also reads what others did with their mail.
  await expect(history.getByRole('columnheader', { name: 'Utilisateur' })).toBeVisible();
  expect((await historyRows(page)).sort()).toEqual([...ownerLines, accountLine].sort());
  // The failures say why, in words, under the result.
  const failures = page.getByTestId('history-row').filter({ hasText: 'Échec' });
  await expect(failures.filter({ hasText: m(4).subject }).getByTestId('history-reason')).toHaveText(
    'Cet e-mail a été supprimé.',
  );
  await expect(failures.filter({ hasText: m(6).subject }).getByTestId('history-reason')).toHaveText(
    'Cet e-mail a déjà été libéré.',
  );

  // Filter by action: in the URL, and each list only that action.
  let shown = await shownHistory(page, () => choose(page, 'Action', 'Libération'));
  await expect(page).toHaveURL(/\/history\?action=release$/);
  expect(shown.map((e) => e.action)).toEqual(Array(5).fill('release'));
  expect((await historyRows(page)).sort()).toEqual(ownerLines.filter((l) => l.includes('| Libération |')).sort());
  shown = await shownHistory(page, () => choose(page, 'Action', 'Suppression'));
  await expect(page).toHaveURL(/\/history\?action=delete$/);
  expect((await historyRows(page)).sort()).toEqual(ownerLines.filter((l) => l.includes('| Suppression |')).sort());
  shown = await shownHistory(page, () => choose(page, 'Action', 'Téléchargement'));
  expect(shown).toEqual([]);
  shown = await shownHistory(page, () => page.getByTestId('history-filters-reset').click());
  await expect(page).toHaveURL(/\/history$/);
  expect(shown).toHaveLength(ownerLines.length + 1);

  // The e-mail link opens that e-mail.
  await page
    .getByTestId('history-row')
    .filter({ hasText: m(3).subject })
    .getByTestId('history-email-link')
    .click();
  await expect(page).toHaveURL(new RegExp(`/mail/${m(3).id}$`));
  await expect(page.getByTestId('email-detail')).toBeVisible();
  await expect(page.locator('#email-title')).toHaveText(m(3).subject);
  await expect(page.getByTestId('email-field-status')).toHaveText('Libéré');

  // Another user of the same domain: their own row only, none of the owner's (the mail category:
  // their account's creation is theirs too).
  shown = await shownHistory(page, () => signInQuick(page, other, '/history?category=mail'));
  expect(shown).toHaveLength(1);
  expect(shown[0]).toMatchObject({ action: 'delete', result: 'success', user: { email: other.email } });
  for (const x of mails) await expect(history.getByText(x.id)).toHaveCount(0);
  await expect(history.getByText(owner.email)).toHaveCount(0);

  // The domain admin: everyone of the domain; the user filter narrows it to the owner.
  shown = await shownHistory(page, () => signInQuick(page, domainAdmin, '/history?category=mail'));
  expect(shown).toHaveLength(ownerLines.length + 1);
  expect(new Set(shown.map((e) => e.user.email))).toEqual(new Set([owner.email, other.email]));
  shown = await shownHistory(page, () => page.getByTestId('history-filter-user').fill(owner.email));
  await expect(page).toHaveURL(new RegExp(`/history\\?category=mail&user=${encodeURIComponent(owner.email)}$`));
  expect((await historyRows(page)).sort()).toEqual([...ownerLines].sort());

  // A domain admin of another domain (the seeded example.org one) sees none of it.
  const elsewhere = await apiAs(stack.users.domainAdmin).get<{ results: HistoryEntry[] }>(
    `/api/history/?user=${encodeURIComponent(owner.email)}`,
  );
  expect(elsewhere.results).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// Statistics and the dashboard's trend

/**
 * Pixels of the chart's canvas: drawn at all (opaque), and how many are light or dark ink (axis
 * text is dark on the light theme, light on the dark one). Null while there is no drawn canvas.
 */
function ink(canvas: Locator) {
  return canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.width && c.height ? c.getContext('2d') : null;
    if (!ctx) return null;
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    let opaque = 0;
    let light = 0;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! < 100) continue;
      opaque++;
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (r > 200 && g > 200 && b > 200) light++;
      else if (r < 60 && g < 60 && b < 60) dark++;
    }
    return { opaque, light, dark };
  });
}

/**
 * Waits for ONE chart canvas in `card` with something drawn on it; with `fresh`, a canvas that was
 * not there before (marked by the previous call): the chart was really rendered again.
 */
async function expectChart(page: Page, card: Locator, fresh = true) {
  const canvas = card.locator(fresh ? 'canvas:not([data-e2e-seen])' : 'canvas');
  await expect(canvas).toHaveCount(1);
  await expect.poll(async () => (await ink(canvas))?.opaque ?? 0, { message: 'pixels drawn' }).toBeGreaterThan(500);
  await expect(page.getByTestId('remote-render-error')).toHaveCount(0);
  await expect(page.getByTestId('remote-load-error')).toHaveCount(0);
  const drawn = (await ink(canvas))!;
  await canvas.evaluate((c) => c.setAttribute('data-e2e-seen', ''));
  return drawn;
}

/** What the page shows against what the api answers as `owner` for the same query. */
async function expectStatistics(page: Page, pageAnswer: Statistics, query: string) {
  const fromApi = await apiAs(owner).get<Statistics>(`/api/statistics/?${query}`);
  expect(pageAnswer.range).toEqual(fromApi.range);
  for (const key of ['quarantined', 'released', 'deleted'] as const) {
    await expect(page.getByTestId(`statistics-total-${key}`)).toHaveText(String(fromApi.totals[key]));
  }
  for (const key of ['low', 'medium', 'high', 'critical'] as const) {
    await expect(page.getByTestId(`statistics-risk-${key}`).locator('strong')).toHaveText(String(fromApi.risk[key]));
  }
  // The api's UTC days, in French words ("16 nov. 2026"), formatted by the browser's own Intl.
  const [from, to] = await page.evaluate(
    (days) =>
      days.map((d) =>
        new Intl.DateTimeFormat('fr', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
          Date.parse(`${d}T00:00:00Z`),
        ),
      ),
    [fromApi.range.from, fromApi.range.to],
  );
  expect(from).toMatch(/^\d{1,2} \S+ \d{4}$/);
  await expect(page.getByTestId('statistics-range-shown')).toHaveText(`Du ${from} au ${to} (jours UTC)`);
  return fromApi;
}

/** The page's statistics call (one per range change) and its answer. */
async function statisticsCall(page: Page, change: () => Promise<unknown>) {
  const answer = apiAnswer(page, '/api/statistics/', 'GET');
  await change();
  const res = await answer;
  expect(res.status()).toBe(200);
  return { query: new URL(res.url()).searchParams.toString(), body: (await res.json()) as Statistics };
}

/** Relative luminance (0 black … 1 white) of an element's first opaque background, up its ancestors. */
const luminance = (el: Locator) =>
  el.evaluate((node: Element) => {
    let n: Element | null = node;
    let rgba = 'rgb(255, 255, 255)';
    while (n) {
      const c = getComputedStyle(n).backgroundColor;
      if (c !== 'transparent' && !/rgba\(.*, 0\)$/.test(c)) {
        rgba = c;
        break;
      }
      n = n.parentElement;
    }
    const [r = 255, g = 255, b = 255] = (rgba.match(/\d+(\.\d+)?/g) ?? []).map(Number);
    const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  });

test('Statistics: totals equal the api for each range, every chart type renders, light and dark', async ({ page }) => {
  const card = page.getByTestId('statistics-chart');
  let call = await statisticsCall(page, () => signInQuick(page, owner, '/statistics'));
  expect(call.query).toBe('days=7');
  await expect(page.getByRole('heading', { name: 'Statistiques' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Période', exact: true })).toBeVisible();
  const week = await expectStatistics(page, call.body, 'days=7');
  // Not a trivial match: this user's mail of the week is counted in each total.
  expect(week.totals.quarantined).toBeGreaterThan(0);
  expect(week.totals.released).toBeGreaterThan(0);
  expect(week.totals.deleted).toBeGreaterThan(0);
  const lightArea = await expectChart(page, card);
  expect(lightArea.dark, 'dark ink (axis text) on the light theme').toBeGreaterThan(lightArea.light);

  // Range presets: the URL, the api call and the totals follow.
  call = await statisticsCall(page, () => choose(page, 'Période', 'Les 30 derniers jours'));
  expect(call.query).toBe('days=30');
  await expect(page).toHaveURL(/\/statistics\?days=30$/);
  await expectStatistics(page, call.body, 'days=30');
  call = await statisticsCall(page, () => choose(page, 'Période', 'Les 3 derniers mois'));
  expect(call.query).toBe('days=90');
  await expect(page).toHaveURL(/\/statistics\?days=90$/);
  const quarter = await expectStatistics(page, call.body, 'days=90');
  expect(quarter.days).toHaveLength(90);
  await expectChart(page, card, false); // the same chart, with the new data

  // Every chart type: in the URL, a chart drawn again, no error boundary.
  for (const [label, search] of [
    ['Barres', 'type=bar'],
    ['Courbes', 'type=line'],
    ['Camembert', 'type=pie'],
    ['Anneau', 'type=donut&pie=risk'], // the pie's data is kept
    ['Barres et courbes', 'type=composed&pie=risk'],
  ] as const) {
    await choose(page, 'Type de graphique', label);
    await expect(page).toHaveURL(new RegExp(`/statistics\\?days=90&${search}$`));
    await expectChart(page, card, !search.startsWith('type=donut')); // pie → donut: the same chart, updated
    if (search === 'type=pie') {
      await choose(page, 'Données du camembert', 'Niveaux de risque');
      await expect(page).toHaveURL(/\/statistics\?days=90&type=pie&pie=risk$/);
      await expectChart(page, card, false);
    }
  }
  await expect(page.getByTestId('statistics-total-quarantined')).toHaveText(String(quarter.totals.quarantined));

  // Dark theme (the shell's toggle saves it and reloads): the page and the chart are dark.
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Activer le thème sombre' }).click()]);
  await expect(page.getByRole('button', { name: 'Activer le thème clair' })).toBeVisible();
  await expect(page).toHaveURL(/\/statistics\?days=90&type=composed&pie=risk$/);
  await expectChart(page, card);
  await expect.poll(() => luminance(card)).toBeLessThan(0.05);
  call = await statisticsCall(page, () => page.goto('/statistics'));
  await expectStatistics(page, call.body, 'days=7');
  const darkArea = await expectChart(page, card);
  expect(darkArea.light, 'light ink (axis text) on the dark theme').toBeGreaterThan(darkArea.dark);
  expect(await luminance(page.getByTestId('statistics-total-quarantined'))).toBeLessThan(0.05);
});

test('the dashboard shows the counts and the 7-day trend chart', async ({ page }) => {
  const trendCall = apiAnswer(page, '/api/statistics/', 'GET');
  await signInQuick(page, owner, '/dashboard');
  const res = await trendCall;
  expect(new URL(res.url()).searchParams.get('days')).toBe('7');
  const counts = await apiAs(owner).get<{ pending: number; released: number; deleted: number }>('/api/dashboard/');
  expect(counts).toEqual({ pending: 0, released: 3, deleted: 3 });
  for (const key of ['pending', 'released', 'deleted'] as const) {
    await expect(page.getByTestId(`dashboard-count-${key}`)).toHaveText(String(counts[key]));
  }
  const trend = page.getByTestId('dashboard-trend');
  await expect(trend).toBeVisible();
  await expect(trend).toContainText('En quarantaine, 7 derniers jours');
  // Our own SVG (the charts library loads only on /statistics): one point per day of the api's
  // answer, each day's count read out in the chart's accessible name.
  const answer = (await res.json()) as Statistics;
  const chart = trend.getByTestId('trend-chart');
  await expect(chart.locator('[data-part="point"]')).toHaveCount(answer.days.length);
  const name = (await chart.getAttribute('aria-label'))!;
  const prefix = 'E-mails mis en quarantaine par jour, 7\u00a0derniers jours (UTC)\u00a0: ';
  expect(name.startsWith(prefix)).toBe(true);
  const spoken = name
    .slice(prefix.length)
    .split(', ')
    .map((day) => Number(day.split('\u00a0: ')[1]!.replace(/\s/g, '')));
  expect(spoken).toEqual(answer.days.map((d) => d.quarantined));
  await expect(page.getByTestId('remote-render-error')).toHaveCount(0);
  // The owner chose the dark theme on the statistics page; saved to the account, it applies at
  // sign-in in this fresh browser too (spec §3): light ink (day labels) on a dark card.
  await expect.poll(() => luminance(trend)).toBeLessThan(0.05);
  const dayInk = await chart
    .locator('[data-part="day"]')
    .first()
    .evaluate((t) => (getComputedStyle(t).fill.match(/\d+/g) ?? []).slice(0, 3).map(Number));
  expect(Math.min(...dayInk), 'light ink on the dark theme').toBeGreaterThan(200);
});

test('the list fits a 1280 px screen: a long subject, sender and recipient list are cut, the full text in their title', async ({
  page,
}) => {
  const subject = `E2E long ${t} ${'a subject that goes on and on without ever stopping '.repeat(6)}`.trim();
  const from = `${'very-long-sender-name-'.repeat(4)}${t}@example.net`;
  const raw = plainMessage({ from, to: other.email, subject, messageId: `long-${t}@x.net`, spam: true });
  const id = await ingestDirect(raw, { from, to: [other.email] });
  try {
    await signInQuick(page, other, '/mail');
    const row = page.getByTestId('quarantine-row').filter({ hasText: `E2E long ${t}` });
    await expect(row).toBeVisible();
    const table = page.getByTestId('quarantine-table');
    // No horizontal scroll bar: the table is as wide as its container, whatever the subject.
    const widths = await table
      .locator('.ant-table-content, .ant-table-body')
      .first()
      .evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    const subjectLink = row.getByRole('link', { name: /E2E long/ });
    await expect(subjectLink).toHaveAttribute('title', subject);
    const cut = await subjectLink.evaluate((el) => {
      const cell = el.closest('td')!;
      return cell.scrollWidth > cell.clientWidth || el.scrollWidth > el.clientWidth;
    });
    expect(cut, 'the subject is cut with an ellipsis').toBe(true);
    await expect(row.getByTitle(from)).toBeVisible();
  } finally {
    await apiAs(other).del(`/api/quarantine/${id}/`);
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`the tags of every action, score band and status read at 4.5:1, ${theme} theme`, async ({ page, stack }) => {
    // antd writes gold, cyan, green… tags (purple in dark) in shades that read at 2.7–3.9:1 on their
    // own background; the page tests' corpus is all "reject".
    const owner = await createMailUser(`a11y-tags-${theme}`, 'tags.example');
    if (theme === 'dark') await saveDarkTheme(stack.baseURL, owner);
    const t = tag();
    const mails: [string, number][] = [
      ['greylist', 2],
      ['add_header', 6],
      ['no_action', 11],
      ['soft_reject', 16],
      ['rewrite_subject', 3],
      ['quarantine', 8],
      ['reject', 20],
    ];
    try {
      for (const [action, score] of mails) {
        await ingestDirect(
          plainMessage({
            from: `tags.${t}@sender.example`,
            to: owner.email,
            subject: `${action} ${t}`,
            messageId: `${action}.${t}@x`,
          }),
          { from: `tags.${t}@sender.example`, to: [owner.email], action, score },
        );
      }
      await signInQuick(page, owner, '/mail?status=all');
      await expect(page.getByRole('table').getByRole('link')).toHaveCount(mails.length);
      // One deleted (its grey status, and a "Succès" row in the history).
      await page.getByRole('table').getByRole('link').first().click();
      await page.getByTestId('email-delete').click();
      await page.getByTestId('email-delete-confirm').click();
      await expect(page.getByTestId('quarantine-page')).toBeVisible();
      await page.goto('/mail?status=all');
      await expect(page.getByRole('table').getByRole('link')).toHaveCount(mails.length);
      const findings = (await axeFindings(page, '[data-testid="quarantine-table"]')).map((f) => `list: ${f}`);
      await page.goto('/history');
      await expect(page.getByTestId('history-table').getByRole('link')).toHaveCount(1);
      findings.push(...(await axeFindings(page, '[data-testid="history-table"]')).map((f) => `history: ${f}`));
      expect(findings).toEqual([]);
    } finally {
      await discardHeldMail(owner.email);
    }
  });
}
