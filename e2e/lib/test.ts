import { writeFileSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { stack, type SeedUser, type Stack } from './stack';

export { expect };

interface Fixtures {
  /** Uncaught page errors matching one of these are tolerated (default: none are). */
  allowPageErrors: RegExp[];
  stack: Stack;
  /**
   * The mail global-setup seeded: asking for it fails the test, loudly, when seeding failed (the
   * run goes on: specs that need no seeded mail still run).
   */
  seeded: NonNullable<Stack['counts']>;
  /** Uncaught errors raised in the page so far; the test fails at the end if any is not allowed. */
  pageErrors: string[];
}

export const test = base.extend<Fixtures>({
  baseURL: async ({}, provide) => provide(stack().baseURL),
  stack: async ({}, provide) => provide(stack()),
  seeded: async ({ stack }, provide) => {
    expect(stack.seedError, 'seeding quarantined mail (global setup)').toBeUndefined();
    expect(stack.counts, 'seeded counts (global setup)').not.toBeNull();
    await provide(stack.counts!);
  },
  allowPageErrors: [[], { option: true }],
  pageErrors: [
    async ({ page, allowPageErrors }, provide, testInfo) => {
      const errors: string[] = [];
      const consoleErrors: string[] = [];
      page.on('pageerror', (e) => errors.push(`${e.name}: ${e.message}`));
      page.on('response', (r) => {
        if (r.status() >= 400) consoleErrors.push(`HTTP ${r.status()} ${r.request().method()} ${r.url()}`);
      });
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(`${m.text()} ${m.location().url}`);
      });
      await provide(errors);
      if (consoleErrors.length) await testInfo.attach('console-errors', { body: consoleErrors.join('\n') });
      const unexpected = errors.filter((e) => !allowPageErrors.some((r) => r.test(e)));
      expect(unexpected, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/** Signs in through the API and puts the tokens where the console keeps them (spec §3). */
export async function signInQuick(page: Page, user: SeedUser, path = '/dashboard'): Promise<void> {
  const res = await page.request.post('/api/auth/login/', { data: { email: user.email, password: user.password } });
  expect(res.status(), `sign-in of ${user.email}`).toBe(200);
  const pair = (await res.json()) as { access: string; refresh: string };
  // Any same-origin document gives access to localStorage; the favicon is the cheapest.
  await page.goto('/favicon.svg');
  await page.evaluate(({ access, refresh }) => {
    localStorage.setItem('accessToken', access);
    localStorage.setItem('refreshToken', refresh);
  }, pair);
  await page.goto(path);
}

/** The login form (spec §2), by accessible names in French or English. */
export function loginForm(page: Page) {
  return {
    email: page.getByLabel(/^(e-mail|adresse e-mail|email)/i),
    password: page.getByLabel(/^(mot de passe|password)/i, { exact: false }).first(),
    submit: page.getByRole('button', { name: /^(se connecter|connexion|sign in|log in)$/i }),
  };
}

export async function signInUi(page: Page, user: Pick<SeedUser, 'email' | 'password'>): Promise<void> {
  const form = loginForm(page);
  await form.email.fill(user.email);
  await form.password.fill(user.password);
  await form.submit.click();
}

/**
 * Logs out through the profile menu (spec §4) and waits for /login. On a loaded machine the click
 * on "Se déconnecter" could land while the menu's popup was still settling: the item took the focus
 * but no click reached it (seen in a trace: no logout request, the menu left open). So it tries again
 * while the page has not left, as a person would click again.
 */
export async function signOutUi(page: Page): Promise<void> {
  const logout = page.waitForResponse((r) => r.url().endsWith('/api/auth/logout/'));
  const item = page.getByRole('menuitem', { name: 'Se déconnecter' });
  await expect(async () => {
    if (/\/login$/.test(page.url())) return;
    if (!(await item.isVisible())) await page.getByRole('button', { name: 'Menu du profil' }).click({ timeout: 5_000 });
    await item.click({ timeout: 5_000 });
    await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
  }).toPass({ timeout: 45_000 });
  expect((await logout).status(), 'POST /api/auth/logout/').toBe(204);
}

/**
 * Cancels the open dialog (a confirmation) and waits until it is gone. A click that lands while the
 * dialog is still zooming in can be lost on a loaded machine (seen: the dialog stayed open), so it
 * clicks again while the dialog is there, as a person would.
 */
export async function cancelDialog(page: Page, button = 'Annuler'): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(async () => {
    if (await dialog.isVisible()) await dialog.getByRole('button', { name: button }).click({ timeout: 5_000 });
    await expect(dialog).toBeHidden({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

/** The [access, refresh] pair the console keeps in localStorage (spec §3). */
export function storedTokens(page: Page): Promise<(string | null)[]> {
  return page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]);
}

/**
 * The answer of the page's next `method path` call that is not a 401: access tokens live a few
 * seconds in this run, so a call may first get a 401 and be sent again after the silent refresh.
 */
export function apiAnswer(page: Page, path: string, method = 'POST') {
  return page.waitForResponse(
    (r) => new URL(r.url()).pathname === path && r.request().method() === method && r.status() !== 401,
  );
}

/**
 * A notice of the host's single stack (antd notification, bottom-left; spec §8; on a phone without a
 * session, at the top, clear of the sign-in form: issue 23).
 */
export function notice(page: Page, text: string | RegExp) {
  return page
    .locator('.ant-notification-bottomLeft, .ant-notification-top')
    .getByTestId('notice')
    .filter({ hasText: text });
}

/** Rewrites the remotes file and waits until the api serves the new content at /remotes.json. */
export async function setRemotes(page: Page, remotes: Record<string, string>): Promise<void> {
  writeFileSync(stack().remotesFile, JSON.stringify(remotes));
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/remotes.json', { headers: { 'Cache-Control': 'no-cache' } });
        return res.ok() ? ((await res.json()) as Record<string, string>) : null;
      },
      { message: '/remotes.json follows QC_REMOTES_FILE', timeout: 15_000 },
    )
    .toEqual(remotes);
}

/**
 * From now on, every page load records the widest the document got in its first 3 s (each animation
 * frame): a layout that starts wide and settles (a phone first drawn as a desktop) is caught too.
 */
export async function trackPageWidth(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __qcWidest?: number };
    w.__qcWidest = 0;
    const until = performance.now() + 3000;
    const tick = () => {
      w.__qcWidest = Math.max(w.__qcWidest ?? 0, document.documentElement?.scrollWidth ?? 0);
      if (performance.now() < until) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/**
 * The page's width as laid out (`widest`: the most since the load, when trackPageWidth is on), and
 * the elements sticking out past the viewport's right edge (the deepest first), so a failing "fits
 * the phone" check names what overflowed.
 */
export function pageOverflow(page: Page): Promise<{ width: number; widest: number; offenders: string[] }> {
  return page.evaluate(() => {
    const limit = window.innerWidth;
    const offenders: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= limit + 0.5) continue;
      if (Array.from(el.children).some((c) => c.getBoundingClientRect().right > limit + 0.5)) continue;
      const id = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' ? el.className.split(' ').slice(0, 2).join('.') : '';
      const text = (el.textContent ?? '').trim().slice(0, 40);
      offenders.push(
        `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''}${cls ? `.${cls}` : ''} ${Math.round(box.left)}–${Math.round(box.right)} "${text}"`,
      );
      if (offenders.length === 8) break;
    }
    const width = document.documentElement.scrollWidth;
    const tracked = (window as unknown as { __qcWidest?: number }).__qcWidest;
    return { width, widest: Math.max(width, tracked ?? 0), offenders };
  });
}
