// Lighthouse (performance, accessibility, best practices) on the console's /login and, signed in,
// /dashboard and /mail: mobile and desktop presets, in Debian chromium. Prints scores and key
// metrics per page (median of --runs).
//   npm run node -- bench/lighthouse.mjs                       # starts the built console itself
//   npm run node -- bench/lighthouse.mjs --url http://127.0.0.1:8080 [--path /login,/dashboard] [--runs 3] [--json]
//     (with --url: --email / --password, or QC_BENCH_EMAIL / QC_BENCH_PASSWORD, sign in)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { arg, BENCH_ADMIN, CHROME_FLAGS, CHROME_PATH, consoleUnderTest, freePort, waitFor } from './lib/server.mjs';

const runs = Math.max(1, Number(arg('runs', 1)) || 1);
const pagePaths = (typeof arg('path') === 'string' ? arg('path') : '/login,/dashboard,/mail')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);
/** Pages measured without a session; every other page is measured signed in. */
const PUBLIC_PATHS = new Set(['/login', '/forgot-password']);
const credentials = {
  email: typeof arg('email') === 'string' ? arg('email') : (process.env.QC_BENCH_EMAIL ?? BENCH_ADMIN.email),
  password:
    typeof arg('password') === 'string' ? arg('password') : (process.env.QC_BENCH_PASSWORD ?? BENCH_ADMIN.password),
};
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
  interactive: 'TTI',
  'total-byte-weight': 'transfer',
  'js-transfer': 'JS transfer',
  'unused-javascript': 'unused JS',
};

async function startChrome() {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'qc-lh-'));
  const child = spawn(
    CHROME_PATH,
    [...CHROME_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore', detached: true }, // its own process group: stop() ends its helpers too
  );
  await waitFor(`http://127.0.0.1:${port}/json/version`, 30_000);
  return {
    port,
    stop: async () => {
      const gone = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await gone;
      // Chromium's helper processes may still be writing the profile as the main one exits.
      await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}

/**
 * Signs in through the api and leaves the session where the console keeps it (localStorage
 * `accessToken` / `refreshToken`, shared/auth/src/token.storage.ts) in the Chrome on `port`, then
 * empties its HTTP cache: Lighthouse, told not to reset storage, then measures a signed-in first load
 * with a cold cache. A fresh sign-in per run: the page may rotate the refresh token.
 */
async function signIn(origin, port) {
  const res = await fetch(`${origin}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || !body.access || !body.refresh) {
    throw new Error(`sign-in as ${credentials.email} failed (${res.status}): ${JSON.stringify(body).slice(0, 200)}`);
  }
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    // Any same-origin answer gives the page the origin's storage; the health check loads no script.
    await page.goto(`${origin}/api/health/`);
    await page.evaluate(({ access, refresh }) => {
      localStorage.setItem('accessToken', access);
      localStorage.setItem('refreshToken', refresh);
    }, body);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.close();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function summarise(lhr) {
  const out = {};
  for (const c of CATEGORIES) out[c] = lhr.categories[c]?.score ?? null;
  for (const [id] of Object.entries(METRICS)) {
    const a = lhr.audits[id];
    out[id] = id === 'unused-javascript' ? (a?.details?.overallSavingsBytes ?? 0) : (a?.numericValue ?? null);
  }
  const scripts = lhr.audits['resource-summary']?.details?.items?.find((i) => i.resourceType === 'script');
  out['js-transfer'] = scripts?.transferSize ?? null;
  return out;
}

function fmt(id, v) {
  if (v === null || v === undefined) return '-';
  if (id === 'cumulative-layout-shift') return v.toFixed(3);
  if (id === 'total-byte-weight' || id === 'js-transfer' || id === 'unused-javascript')
    return `${Math.round(v / 1024)} KiB`;
  if (CATEGORIES.includes(id)) return v.toFixed(2);
  return `${Math.round(v)} ms`;
}

async function measure(url, signedIn) {
  const results = {};
  for (const [preset, config] of [
    ['mobile', undefined],
    ['desktop', desktopConfig],
  ]) {
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const chrome = await startChrome();
      try {
        if (signedIn) await signIn(new URL(url).origin, chrome.port);
        const r = await lighthouse(
          url,
          {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: CATEGORIES,
            // Keeps the session signIn left; the cache it already emptied.
            disableStorageReset: signedIn,
          },
          config,
        );
        if (r?.lhr.runtimeError) throw new Error(`${r.lhr.runtimeError.code}: ${r.lhr.runtimeError.message}`);
        const landed = new URL(r.lhr.finalDisplayedUrl).pathname;
        if (signedIn && landed.startsWith('/login')) throw new Error(`${url}: sent to ${landed}, not signed in`);
        samples.push(summarise(r.lhr));
      } finally {
        await chrome.stop();
      }
    }
    results[preset] = Object.fromEntries(Object.keys(samples[0]).map((k) => [k, median(samples.map((s) => s[k]))]));
  }
  return results;
}

const target = await consoleUnderTest();
const pages = {};
try {
  for (const p of pagePaths) {
    const url = target.url + p;
    pages[p] = { url, signedIn: !PUBLIC_PATHS.has(p), results: await measure(url, !PUBLIC_PATHS.has(p)) };
  }
} finally {
  await target.stop();
}

if (arg('json')) {
  console.log(JSON.stringify({ runs, pages }, null, 2));
} else {
  const rows = [...CATEGORIES, ...Object.keys(METRICS)];
  const label = (id) => METRICS[id] ?? id;
  for (const { url, signedIn, results } of Object.values(pages)) {
    console.log(
      `Lighthouse ${url}${signedIn ? ' (signed in, cold cache)' : ''} (median of ${runs} run${runs > 1 ? 's' : ''} per preset)\n`,
    );
    console.log(`${''.padEnd(16)}${'mobile'.padStart(12)}${'desktop'.padStart(12)}`);
    for (const id of rows) {
      console.log(
        `${label(id).padEnd(16)}${fmt(id, results.mobile[id]).padStart(12)}${fmt(id, results.desktop[id]).padStart(12)}`,
      );
    }
    console.log('');
  }
}
