import path from 'node:path';
import { defineConfig } from '@playwright/test';

// The e2e suite runs against the BUILT console (host/dist + remote-mail/dist) served by ONE api
// process that global-setup.ts starts on a free loopback port with a fresh data directory.
// Debian's chromium is used: `playwright install` cannot download browsers here.
const root = path.resolve(__dirname, '..');

export default defineConfig({
  testDir: './specs',
  outputDir: path.join(root, 'test-results', 'e2e'),
  globalSetup: './global-setup.ts',
  // One worker: some specs rewrite the shared remotes file, and the api's login rate limits and
  // token lifetimes are per server. The whole suite takes about a minute.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    locale: 'en-US', // the console must stay French by default whatever the browser says
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    // No trace by default: recording one for every test (kept only on failure) took 10 of the
    // suite's 23 minutes on the 2-core machine. To debug a failure: --trace retain-on-failure.
    trace: 'off',
    launchOptions: {
      executablePath: process.env.QC_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
