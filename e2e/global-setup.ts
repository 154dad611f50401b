import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, runCli, startApi, type ApiProcess } from './lib/api-process';
import { startDirectoryHarness, type DirectoryHarness } from './lib/directory-harness';
import { startMailHarness, type MailHarness } from './lib/mail-harness';
import { startOidcHarness, type OidcHarness } from './lib/oidc-harness';
import { seedMail } from './lib/seed';
import { ROOT, saveStack, type Stack } from './lib/stack';
import { startStaticServer, type StaticServer } from './lib/static-server';

/**
 * Starts ONE api per run on a free loopback port with a fresh data directory, serving the already
 * built front end; a second loopback origin serves the throwing fixture remote and a moved copy of
 * remote-mail; seeds the three users and some quarantined mail. Returns the teardown.
 */
const ACCESS_TTL = 5; // seconds (the api's minimum): the silent-refresh spec waits past it

function requireBuilt(): void {
  const needed = [
    'host/dist/index.html',
    'remote-mail/dist/mf-manifest.json',
    'remote-mail/dist/remoteEntry.js',
    'remote-admin/dist/mf-manifest.json',
    'remote-rspamd/dist/mf-manifest.json',
  ];
  const missing = needed.filter((f) => !existsSync(path.join(ROOT, f)));
  if (missing.length) {
    throw new Error(
      `The e2e suite runs against the built front end, and ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing.\n` +
        'Build first (from the repository root): npm run build\n' +
        '  (or: pnpm --filter @qc/host build && pnpm --filter @qc/remote-mail build)',
    );
  }
  if (!existsSync(path.join(ROOT, 'api/src/main.ts'))) throw new Error('api/src/main.ts is missing');
}

/** Builds e2e/fixtures/remote-throws (a `remote_mail` container whose modules throw on render). */
function buildThrowingRemote(): string {
  const dir = path.join(__dirname, 'fixtures', 'remote-throws');
  // It stands in for remote-mail, so it resolves its shared packages the way remote-mail does.
  execFileSync(process.execPath, [path.join(dir, 'build.cjs')], {
    cwd: path.join(ROOT, 'remote-mail'),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
  const dist = path.join(dir, 'dist');
  if (!existsSync(path.join(dist, 'mf-manifest.json'))) throw new Error('the remote-throws fixture did not build');
  return dist;
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  requireBuilt();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'qc-e2e-'));
  const resultsDir = path.join(ROOT, 'test-results');
  mkdirSync(resultsDir, { recursive: true });
  const apiLog = path.join(resultsDir, 'e2e-api.log');
  rmSync(apiLog, { force: true });

  let api: ApiProcess | undefined;
  let other: StaticServer | undefined;
  let mail: MailHarness | undefined;
  let directory: DirectoryHarness | undefined;
  let directoryError: string | undefined;
  let oidc: OidcHarness | undefined;
  let oidcError: string | undefined;
  let mailStarting: Promise<{ info?: Stack['mail']; error?: string }> | undefined;
  const teardown = async () => {
    await mailStarting;
    await mail?.close();
    await api?.stop();
    await directory?.close();
    await oidc?.close();
    await other?.close();
    rmSync(tmp, { recursive: true, force: true });
  };

  try {
    const throwsDist = buildThrowingRemote();
    // "Moved" remote-mail: the same built files, deployed on another origin (no host rebuild).
    const movedDir = path.join(tmp, 'moved', 'remote-mail');
    cpSync(path.join(ROOT, 'remote-mail', 'dist'), movedDir, { recursive: true });
    other = await startStaticServer({ '/throws/': throwsDist, '/moved/remote-mail/': movedDir });

    const dataDir = path.join(tmp, 'data');
    mkdirSync(dataDir);
    const remotesFile = path.join(tmp, 'remotes.json');
    const defaultRemotes = {
      remote_mail: '/remotes/remote-mail/mf-manifest.json',
      remote_admin: '/remotes/remote-admin/mf-manifest.json',
      remote_rspamd: '/remotes/remote-rspamd/mf-manifest.json',
      remote_haraka: '/remotes/remote-haraka/mf-manifest.json',
    };
    writeFileSync(remotesFile, JSON.stringify(defaultRemotes));

    // The real OpenLDAP people sign in with (issue 31). A failure fails directory.spec, not the run.
    try {
      directory = await startDirectoryHarness();
    } catch (e) {
      directoryError = (e as Error).message;
    }
    const port = await freePort();
    // The real OpenID Provider people sign in with (issue 32). A failure fails sso.spec, not the run.
    try {
      oidc = await startOidcHarness(`http://127.0.0.1:${port}`);
    } catch (e) {
      oidcError = (e as Error).message;
    }
    // The SMTP sink (releases, clean mail) and a control endpoint for the mail-* specs, which stop
    // and start this very api (same port and data directory) through it.
    mail = await startMailHarness(
      {
        stop: async () => api?.stop(),
        start: async () => {
          api = await startApi(env, apiLog);
        },
      },
      () => port,
    );
    const users: Stack['users'] = {
      admin: { email: 'admin@example.com', password: 'Admin-e2e-pass-1', role: 'admin' },
      domainAdmin: {
        email: 'domadmin@example.org',
        password: 'Domadmin-e2e-pass-1',
        role: 'domain_admin',
        domain: 'example.org',
      },
      user: { email: 'user@example.org', password: 'User-e2e-pass-1', role: 'user', domain: 'example.org' },
    };
    const ingestToken = 'e2e-ingest-token-0123456789abcdef';
    // Rspamd fetches the console's rules with it (rspamd.spec.ts: a filter saved in the pages goes live).
    const mapsToken = 'e2e-maps-token-0123456789abcdef';
    // Learn spam/ham (issue 18): the api reaches the stack's Rspamd controller, known before it starts.
    const controller = { port: await freePort(), password: 'e2e-rspamd-controller-pass' };
    const env: Record<string, string> = {
      QC_HOST: '127.0.0.1',
      QC_PORT: String(port),
      QC_DATA_DIR: dataDir,
      QC_PUBLIC_URL: `http://127.0.0.1:${port}`,
      QC_ADMIN_EMAIL: users.admin.email,
      QC_ADMIN_PASSWORD: users.admin.password,
      QC_ACCESS_TTL: String(ACCESS_TTL),
      QC_REFRESH_GRACE: '30',
      QC_REMOTES_FILE: remotesFile,
      // QC_E2E_STATIC_DIR: try the suite against another host build (debugging only).
      QC_STATIC_DIR: process.env.QC_E2E_STATIC_DIR ?? path.join(ROOT, 'host', 'dist'),
      QC_INGEST_TOKEN: ingestToken,
      QC_RSPAMD_MAPS_TOKEN: mapsToken,
      QC_RSPAMD_CONTROLLER_URL: `http://127.0.0.1:${controller.port}`,
      QC_RSPAMD_CONTROLLER_PASSWORD: controller.password,
      QC_SMTP_URL: `smtp://127.0.0.1:${mail.sinkPort}`, // the e2e sink (lib/mail-harness.ts)
      // No scheduled digests: one would mail every seeded user in the middle of other specs' sink
      // checks. notifications.spec sends its digest itself.
      QC_DIGEST_SCHEDULE: 'off',
      QC_LOG_LEVEL: 'warn',
      // Generous sign-in limits: every spec signs in, and all of them come from 127.0.0.1.
      QC_LOGIN_RATE_ACCOUNT_MAX: '1000',
      QC_LOGIN_RATE_IP_MAX: '1000',
      QC_LOGIN_RATE_WINDOW: '60',
      // Cheap password hashing: the suite signs in dozens of times (same variables as production).
      QC_ARGON2_MEMORY_KIB: '1024',
      QC_ARGON2_TIME_COST: '1',
      // The specs sign in as the admin and the domain admin with a password only; the default
      // (two-factor set-up for both roles) is the api's to test (mfa-required.test.ts).
      QC_MFA_REQUIRED_ROLES: 'none',
      ...directory?.env,
      ...oidc?.env,
    };
    // The real Haraka + Rspamd + Redis (about 1-2 s), started while the api starts: clean mail goes
    // to the sink, spam to this api's ingest. A failure fails the mail-* specs, not the run.
    const mailLog = path.join(resultsDir, 'e2e-mailstack.log');
    rmSync(mailLog, { force: true });
    mailStarting = mail
      .startStack({ apiUrl: `http://127.0.0.1:${port}`, ingestToken, mapsToken, controller, logFile: mailLog })
      .then(
        (info) => ({ info }),
        (e: Error) => ({ error: e.message }),
      );
    api = await startApi(env, apiLog);

    for (const u of [users.domainAdmin, users.user]) {
      await runCli(
        [
          'user:create',
          '--email',
          u.email,
          '--password',
          u.password,
          '--role',
          u.role,
          ...(u.domain ? ['--domain', u.domain] : []),
        ],
        env,
      );
    }
    // A seeding failure (say, ingest not implemented yet) fails the dashboard spec, not the run.
    let counts: Stack['counts'] = null;
    let seedVia: string | undefined;
    let seedError: string | undefined;
    try {
      ({ counts, via: seedVia } = await seedMail(api.url, ingestToken, users, env));
    } catch (e) {
      seedError = (e as Error).message;
    }

    const stack: Stack = {
      baseURL: api.url,
      otherOrigin: other.origin,
      remotesFile,
      defaultRemotes,
      throwingManifest: `${other.origin}/throws/mf-manifest.json`,
      movedManifest: `${other.origin}/moved/remote-mail/mf-manifest.json`,
      accessTtlSeconds: ACCESS_TTL,
      users,
      counts,
      seedVia,
      seedError,
      apiLog,
      cliEnv: env,
      mail: (await mailStarting).info,
      mailError: (await mailStarting).error,
      directory: directory?.info,
      directoryError,
      oidc: oidc?.info,
      oidcError,
    };
    saveStack(path.join(tmp, 'stack.json'), stack);
    return teardown;
  } catch (e) {
    await teardown();
    throw e;
  }
}
