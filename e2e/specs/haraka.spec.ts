import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { apiAs } from '../lib/api-client';
import { createMailUser, discardHeldMail, mailInfo, plainMessage, sendToHaraka, tag } from '../lib/mail';
import { ROOT, type SeedUser } from '../lib/stack';
import { startStaticServer } from '../lib/static-server';
import { expect, setRemotes, signInQuick, test } from '../lib/test';

// Issue 19 in the browser: Haraka's own log lines (shipped by the real Haraka of this run) searched
// by an admin, the trace of one quarantined e-mail from its detail to its lines and back, and
// remote-haraka deployed on its own: built again with another version into another folder, served
// from another origin, /remotes.json pointed at it, nothing else rebuilt. Non-admins never download it.

let owner: SeedUser | undefined;
test.afterAll(async () => {
  if (owner) await discardHeldMail(owner.email);
});

test('an admin searches Haraka’s logs and follows a quarantined e-mail to its lines and back', async ({
  page,
  stack,
}) => {
  // Two first loads of a remote while this file's two remote-haraka builds run (48 s seen on a quiet machine).
  test.setTimeout(120_000);
  mailInfo(); // fails here, with the reason, when the mail stack did not start
  owner = await createMailUser('haraka');
  const t = tag();
  const sender = `logs-${t}@example.net`;
  const subject = `E2E haraka logs ${t}`;
  const raw = plainMessage({ from: sender, to: owner.email, subject, messageId: `logs-${t}@example.net`, spam: true });
  const answer = await sendToHaraka({ from: sender, to: [owner.email] }, raw);
  expect(answer.code, answer.response).toBe(250);
  const admin = apiAs(stack.users.admin);
  const held = await admin.get<{ results: { id: string; subject: string }[] }>(
    `/api/quarantine/?q=${encodeURIComponent(subject)}`,
  );
  const id = held.results.find((r) => r.subject === subject)!.id;

  // The logs page: the sender's lines, found by a part of the message (the last 24 h by default).
  await signInQuick(page, stack.users.admin, `/haraka/logs?q=${encodeURIComponent(sender)}`);
  // remote-haraka's first load, while this file's two builds of it keep both cores busy.
  await expect(page.getByTestId('haraka-logs-page')).toBeVisible({ timeout: 30_000 });
  const table = page.getByTestId('logs-table');
  await expect(table.getByText(sender, { exact: false }).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('remote-haraka-version')).toContainText('remote-haraka');

  // From the e-mail's detail to its transaction's lines, then back.
  await page.goto(`/mail/${id}`);
  // remote-mail's first load here, the same.
  await expect(page.getByTestId('email-detail')).toBeVisible({ timeout: 30_000 });
  const link = page.getByTestId('email-haraka-logs');
  await expect(link).toHaveText(answer.uuid!);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/haraka/logs/${answer.uuid!.replace('.', '\\.')}$`));
  await expect(page.getByTestId('haraka-uuid-page')).toBeVisible();
  await expect(page.getByTestId('uuid-lines')).toContainText(sender);
  const transaction = page.getByTestId('uuid-transaction').filter({ hasText: answer.uuid! });
  await expect(transaction.getByTestId('uuid-outcome')).toHaveText(/quarantaine/i);
  await transaction.getByTestId('uuid-email-link').click();
  await expect(page).toHaveURL(new RegExp(`/mail/${id}$`));
  await expect(page.getByTestId('email-detail')).toBeVisible();

  // A malformed uuid is said so, and nothing is asked of the api.
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/haraka/logs/not-a-uuid')) asked.push(r.url());
  });
  await page.goto('/haraka/logs/not-a-uuid');
  await expect(page.getByText('Erreur lors du chargement des journaux. Vérifiez l’UUID.')).toBeVisible();
  expect(asked).toEqual([]);
});

/**
 * The two builds of remote-haraka this file deploys, started together when the file begins (each is
 * ~25 s of webpack; side by side they overlap with each other and with the first test):
 * - `shipped`: its own build command and output, as the mail-infra team would run it, another version;
 * - `next`: the next version, built against @qc/auth and @qc/ui-state 2.0.0, singletons that this
 *   console (1.x) does not offer.
 */
let started: { shipped: Promise<{ version: string; out: string }>; next: Promise<string> } | undefined;
/** The console's built files before these builds start: "nothing else was rebuilt" compares with it. */
let builtBefore: Record<string, number> | undefined;
const workDirs: string[] = [];
function builds(): NonNullable<typeof started> {
  if (started) return started;
  builtBefore = builtFiles();
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    workDirs.push(dir);
    return dir;
  };
  const version = `9.9.${Date.now() % 1000}-e2e`;
  const shippedOut = tempDir('remote-haraka-');
  const nextDir = tempDir('remote-haraka-next-');
  const config = path.join(nextDir, 'webpack.next.cjs');
  writeFileSync(
    config,
    `const make = require(${JSON.stringify(path.join(ROOT, 'remote-haraka', 'webpack.config.js'))});
module.exports = (env, argv) => {
  const config = make(env, argv);
  const mf = config.plugins.find((p) => p.constructor.name === 'ModuleFederationPlugin');
  for (const name of ['@qc/auth', '@qc/ui-state'])
    mf._options.shared[name] = { ...mf._options.shared[name], version: '2.0.0', requiredVersion: '^2.0.0' };
  config.cache = false;
  return config;
};
`,
  );
  started = {
    shipped: buildRemoteHaraka(shippedOut, { QC_REMOTE_VERSION: version }).then(() => ({ version, out: shippedOut })),
    next: buildRemoteHaraka(path.join(nextDir, 'dist'), {}, config).then(() => path.join(nextDir, 'dist')),
  };
  // Awaited by their tests; a filtered run that skips one must not see an unhandled rejection.
  started.shipped.catch(() => undefined);
  started.next.catch(() => undefined);
  return started;
}
test.beforeAll(() => {
  builds();
});
test.afterAll(async () => {
  test.setTimeout(300_000); // a filtered run may end before the builds do
  await Promise.allSettled([started?.shipped, started?.next]);
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

/** Every file of the built apps with its modification time: what a rebuild would change. */
function builtFiles(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const app of ['host', 'remote-mail', 'remote-admin', 'remote-rspamd', 'remote-haraka']) {
    const dir = path.join(ROOT, app, 'dist');
    for (const name of readdirSync(dir)) out[`${app}/${name}`] = statSync(path.join(dir, name)).mtimeMs;
  }
  return out;
}

test('remote-haraka ships on its own: another version from another origin, nothing else rebuilt', async ({
  page,
  stack,
}) => {
  test.setTimeout(300_000);
  const { version, out } = await builds().shipped;
  const before = builtBefore!; // taken in beforeAll, before either build started
  const other = await startStaticServer({ '/remote-haraka/': out });
  try {
    await setRemotes(page, {
      ...stack.defaultRemotes,
      remote_haraka: `${other.origin}/remote-haraka/mf-manifest.json`,
    });
    await signInQuick(page, stack.users.admin, '/haraka/logs');
    await expect(page.getByTestId('remote-haraka-version')).toContainText(version);
    expect(other.requests.some((p) => p.endsWith('/remoteEntry.js') || p.endsWith('/mf-manifest.json'))).toBe(true);
    // The other remotes still work.
    await page.goto('/mail');
    await expect(page.getByRole('heading', { name: 'Quarantaine' })).toBeVisible();
    await page.goto('/rspamd/domains');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goto('/users');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Nothing of the console was rebuilt (remote-haraka's own folder included).
    expect(builtFiles()).toEqual(before);
  } finally {
    await setRemotes(page, stack.defaultRemotes);
    await other.close();
  }
});

test('a remote-haraka built for a newer console says so, translated, and the console goes on', async ({
  page,
  stack,
}) => {
  test.setTimeout(300_000);
  const out = await builds().next;
  const other = await startStaticServer({ '/remote-haraka/': out });
  try {
    await setRemotes(page, {
      ...stack.defaultRemotes,
      remote_haraka: `${other.origin}/remote-haraka/mf-manifest.json`,
    });
    await signInQuick(page, stack.users.admin, '/haraka/logs');
    const refusal = page.getByTestId('remote-incompatible');
    await expect(refusal).toContainText('Ce module demande une console plus récente');
    await expect(refusal).toContainText('Mettez la console à jour');
    await expect(page.getByTestId('remote-haraka-version')).toHaveCount(0);
    // Its code was fetched from the other origin and refused there; the shell is whole around it.
    expect(other.requests.some((p) => p.endsWith('/remoteEntry.js') || p.endsWith('/mf-manifest.json'))).toBe(true);
    await expect(page.getByRole('navigation', { name: 'Navigation principale' })).toBeVisible();
    // In English too.
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.reload();
    await expect(page.getByTestId('remote-incompatible')).toContainText('This module needs a newer console');
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'fr'));
    // The other remotes still work.
    await page.goto('/mail');
    await expect(page.getByRole('heading', { name: 'Quarantaine' })).toBeVisible();
  } finally {
    await setRemotes(page, stack.defaultRemotes);
    await other.close();
  }
});

/** remote-haraka's own build (its webpack, its folder), into `out`. */
async function buildRemoteHaraka(out: string, env: Record<string, string>, configFile?: string): Promise<void> {
  await promisify(execFile)(
    path.join(ROOT, 'remote-haraka', 'node_modules', '.bin', 'webpack'),
    ['--mode', 'production', '--output-path', out, ...(configFile ? ['--config', configFile] : [])],
    { cwd: path.join(ROOT, 'remote-haraka'), env: { ...process.env, ...env }, timeout: 240_000 },
  );
}

const HARAKA_ROUTES = [
  '/haraka/logs',
  '/haraka/logs/4E79AA5D-4AC5-4BAB-A624-B676B161DCFE.1',
  '/haraka/statistics/summary',
  '/haraka/statistics/logs-per-day',
];

for (const who of ['domainAdmin', 'user'] as const) {
  test(`a ${who === 'user' ? 'user' : 'domain_admin'} is sent to /dashboard from every haraka route and never downloads remote-haraka code`, async ({
    page,
    stack,
  }) => {
    test.setTimeout(90_000);
    const files: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/remotes/remote-haraka/')) files.push(r.url());
    });
    await signInQuick(page, stack.users[who], '/dashboard');
    await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    await expect(nav.getByRole('menuitem', { name: 'Haraka' })).toHaveCount(0);
    for (const route of HARAKA_ROUTES) {
      await page.goto(route);
      await expect(page, route).toHaveURL(/\/dashboard$/);
      await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    expect(files, 'remote-haraka files requested').toEqual([]);
  });
}
