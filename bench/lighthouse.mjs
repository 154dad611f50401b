// Lighthouse (performance, accessibility, best practices) on the console's /login, mobile and
// desktop presets, in Debian chromium. Prints scores and key metrics (median of --runs).
//   node bench/lighthouse.mjs                       # starts the built console itself
//   node bench/lighthouse.mjs --url http://127.0.0.1:8080 [--path /login] [--runs 3] [--json]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { arg, CHROME_FLAGS, CHROME_PATH, consoleUnderTest, freePort, waitFor } from './lib/server.mjs';

const runs = Math.max(1, Number(arg('runs', 1)) || 1);
const pagePath = typeof arg('path') === 'string' ? arg('path') : '/login';
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
  interactive: 'TTI',
  'total-byte-weight': 'transfer',
  'unused-javascript': 'unused JS',
};

async function startChrome() {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'qc-lh-'));
  const child = spawn(
    CHROME_PATH,
    [...CHROME_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    {
      stdio: 'ignore',
    },
  );
  await waitFor(`http://127.0.0.1:${port}/json/version`, 30_000);
  return {
    port,
    stop: async () => {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
      rmSync(profile, { recursive: true, force: true });
    },
  };
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
  return out;
}

function fmt(id, v) {
  if (v === null || v === undefined) return '-';
  if (id === 'cumulative-layout-shift') return v.toFixed(3);
  if (id === 'total-byte-weight' || id === 'unused-javascript') return `${Math.round(v / 1024)} KiB`;
  if (CATEGORIES.includes(id)) return v.toFixed(2);
  return `${Math.round(v)} ms`;
}

const target = await consoleUnderTest();
const url = target.url + pagePath;
const results = {};
try {
  for (const [preset, config] of [
    ['mobile', undefined],
    ['desktop', desktopConfig],
  ]) {
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const chrome = await startChrome();
      try {
        const r = await lighthouse(
          url,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
          config,
        );
        if (r?.lhr.runtimeError) throw new Error(`${r.lhr.runtimeError.code}: ${r.lhr.runtimeError.message}`);
        samples.push(summarise(r.lhr));
      } finally {
        await chrome.stop();
      }
    }
    results[preset] = Object.fromEntries(Object.keys(samples[0]).map((k) => [k, median(samples.map((s) => s[k]))]));
  }
} finally {
  await target.stop();
}

if (arg('json')) {
  console.log(JSON.stringify({ url, runs, results }, null, 2));
} else {
  console.log(`Lighthouse ${url} (median of ${runs} run${runs > 1 ? 's' : ''} per preset)\n`);
  const rows = [...CATEGORIES, ...Object.keys(METRICS)];
  const label = (id) => METRICS[id] ?? id;
  console.log(`${''.padEnd(16)}${'mobile'.padStart(12)}${'desktop'.padStart(12)}`);
  for (const id of rows) {
    console.log(
      `${label(id).padEnd(16)}${fmt(id, results.mobile[id]).padStart(12)}${fmt(id, results.desktop[id]).padStart(12)}`,
    );
  }
}
