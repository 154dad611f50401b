// Prints the JavaScript the browser downloads for /login (or --path): per file and in total, raw
// and gzip -9 (node zlib over the response bodies, the same measure as the e2e budget test).
//   npm run node -- bench/login-bytes.mjs                      # starts the built console itself
//   npm run node -- bench/login-bytes.mjs --url http://127.0.0.1:8080 [--path /login] [--json]
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { arg, CHROME_FLAGS, CHROME_PATH, consoleUnderTest } from './lib/server.mjs';

const target = await consoleUnderTest();
const pagePath = typeof arg('path') === 'string' ? arg('path') : '/login';
const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
try {
  const context = await browser.newContext(); // empty cache
  const page = await context.newPage();
  const pending = [];
  page.on('response', (res) => {
    const type = res.request().resourceType();
    const ctype = res.headers()['content-type'] ?? '';
    if (type !== 'script' && !/javascript/.test(ctype)) return;
    pending.push(
      res.body().then(
        (body) => ({
          file: new URL(res.url()).pathname,
          status: res.status(),
          encoding: res.headers()['content-encoding'] ?? '',
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
        }),
        () => null,
      ),
    );
  });
  await page.goto(`${target.url}${pagePath}`, { waitUntil: 'networkidle' });
  const files = (await Promise.all(pending)).filter(Boolean).sort((a, b) => b.gzip - a.gzip);
  const total = files.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip }), { raw: 0, gzip: 0 });
  if (arg('json')) {
    console.log(JSON.stringify({ url: target.url + pagePath, files, total }, null, 2));
  } else {
    const n = (v) => v.toLocaleString('en-US').padStart(11);
    console.log(`JS downloaded by ${target.url}${pagePath} (fresh context)\n`);
    console.log(`${'raw B'.padStart(11)} ${'gzip -9 B'.padStart(11)}  file`);
    for (const f of files)
      console.log(`${n(f.raw)} ${n(f.gzip)}  ${f.file}${f.status !== 200 ? ` (HTTP ${f.status})` : ''}`);
    console.log(`${n(total.raw)} ${n(total.gzip)}  TOTAL (${files.length} files)`);
  }
} finally {
  await browser.close();
  await target.stop();
}
