import type { Request } from '@playwright/test';
import { apiAs } from '../lib/api-client';
import { expect, signInQuick, test } from '../lib/test';

// Spec §4 "Token refresh on a request", DESIGN §7: many concurrent 401s → ONE refresh.

function accessExp(token: string | null | undefined): number {
  const payload = token?.split('.')[1] ?? '';
  return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp: number }).exp;
}

test('an expired access token is refreshed silently, once, for several requests in flight', async ({
  page,
  stack,
  seeded: _seeded, // the dashboard shows mail: none seeded would make its count prove nothing
}, testInfo) => {
  test.setTimeout(60_000);
  await signInQuick(page, stack.users.admin);
  await expect(page.getByTestId('dashboard-count-pending')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const before = await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]);

  // Let the access token expire (QC_ACCESS_TTL is a few seconds in this run).
  const waitMs = accessExp(before[0]) * 1000 - Date.now() + 1_500;
  expect(waitMs).toBeLessThan((stack.accessTtlSeconds + 5) * 1000);
  await page.waitForTimeout(Math.max(0, waitMs));

  const refreshes: Request[] = [];
  const apiCalls: Request[] = [];
  const unauthorized: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname === '/api/auth/refresh/' && r.method() === 'POST') refreshes.push(r);
    else if (pathname.startsWith('/api/') && !pathname.startsWith('/api/auth/')) apiCalls.push(r);
  });
  page.on('response', (r) => {
    if (r.status() === 401) unauthorized.push(new URL(r.url()).pathname);
  });

  // The dashboard's reload button refetches all its queries at once.
  await page.getByRole('button', { name: 'Actualiser' }).click();
  await expect.poll(() => refreshes.length).toBe(1);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1_000);

  await testInfo.attach('requests', {
    body: JSON.stringify(
      { refreshes: refreshes.length, apiCalls: apiCalls.map((r) => new URL(r.url()).pathname), unauthorized },
      null,
      2,
    ),
  });
  expect(refreshes, 'POST /api/auth/refresh/ requests').toHaveLength(1);
  expect(new Set(apiCalls.map((r) => new URL(r.url()).pathname)).size, 'distinct API calls refetched').toBeGreaterThan(
    1,
  );
  expect(
    unauthorized.filter((p) => p.startsWith('/api/auth/')),
    'no 401 on the auth endpoints',
  ).toEqual([]);
  // Every refetch ended well: still signed in, on the dashboard, with a rotated pair stored.
  await expect(page).toHaveURL(/\/dashboard$/);
  // What the api says now (earlier specs released and deleted seeded mail), not the seeded figure.
  const dashboard = await apiAs(stack.users.admin).get<{ pending: number }>('/api/dashboard/');
  await expect(page.getByTestId('dashboard-count-pending')).toHaveText(String(dashboard.pending));
  const after = await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]);
  expect(after[0]).not.toBe(before[0]);
  expect(after[1]).not.toBe(before[1]);
  expect(accessExp(after[0]) * 1000).toBeGreaterThan(Date.now());
  const lastCalls = await Promise.all(apiCalls.map(async (r) => (await r.response())?.status()));
  expect(lastCalls.filter((s) => s !== undefined && s >= 200 && s < 300).length).toBeGreaterThan(1);
});
