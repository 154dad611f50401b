import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '../lib/test';

// DESIGN §3/§8: /login must stay light. Deterministic: gzip -9 (node zlib) of every JS body that a
// fresh browser downloads for /login, summed and compared with the committed budget.

const budget = JSON.parse(readFileSync(path.join(__dirname, '..', 'login-budget.json'), 'utf8')) as {
  maxGzipBytes: number;
};

test('the JavaScript of /login fits the committed byte budget', async ({ page }, testInfo) => {
  expect(budget.maxGzipBytes).toBeLessThanOrEqual(256_000);
  const bodies: Promise<{ file: string; raw: number; gzip: number; antd: boolean; charts: boolean } | null>[] = [];
  page.on('response', (res) => {
    const isJs = res.request().resourceType() === 'script' || /javascript/.test(res.headers()['content-type'] ?? '');
    if (!isJs) return;
    bodies.push(
      res.body().then((body) => ({
        file: new URL(res.url()).pathname,
        raw: body.length,
        gzip: gzipSync(body, { level: 9 }).length,
        // antd's CSS-in-JS marks its style tags so; G2 (the charts) names its @antv packages.
        antd: body.includes('data-css-hash'),
        charts: body.includes('antv'),
      })),
    );
  });
  await page.goto('/login', { waitUntil: 'networkidle' });
  await expect(page.getByRole('button', { name: 'Se connecter', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const files = (await Promise.all(bodies)).filter((f) => f !== null).sort((a, b) => b.gzip - a.gzip);
  const total = files.reduce((t, f) => t + f.gzip, 0);
  const report = files.map((f) => `${String(f.gzip).padStart(8)} ${String(f.raw).padStart(9)}  ${f.file}`).join('\n');
  await testInfo.attach('login-js-bytes', {
    body: `gzip -9   raw       file\n${report}\n${String(total).padStart(8)} total gzip (${files.length} files)`,
  });
  console.log(`/login JS: ${total} B gzip -9 in ${files.length} files (budget ${budget.maxGzipBytes})`);
  expect(files.length).toBeGreaterThan(0);
  // Nothing of a remote is downloaded before its route is visited (DESIGN §3).
  expect(files.filter((f) => f.file.startsWith('/remotes/'))).toEqual([]);
  // Issue 22: the sign-in page is plain markup; antd and the charts come after sign-in.
  expect(
    files.filter((f) => f.antd).map((f) => f.file),
    'files with antd',
  ).toEqual([]);
  expect(
    files.filter((f) => f.charts).map((f) => f.file),
    'files with chart code',
  ).toEqual([]);
  expect(total, `/login JS gzip bytes\n${report}`).toBeLessThanOrEqual(budget.maxGzipBytes);
});
