import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The test OpenID Provider: oidc-provider in a node process of its own (test/oidc/provider.mjs,
 * whose header says who can sign in). Either the shared one of scripts/oidc.sh (npm test starts it;
 * by hand: `bash scripts/oidc.sh start`), registered for the redirect URIs below, or one of a test's
 * own from startOidcProvider(). Nothing here uses jest: the e2e specs may load it too.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const PROVIDER = path.join(ROOT, 'test', 'oidc', 'provider.mjs');

export const TEST_OIDC_ISSUER = process.env.QC_TEST_OIDC_ISSUER || 'http://127.0.0.1:55480';
/** What the shared provider (scripts/oidc.sh) has registered for the client. */
export const SHARED_OIDC_REDIRECT_URI = 'http://127.0.0.1:8080/api/auth/oidc/callback/';
export const SHARED_OIDC_POST_LOGOUT_REDIRECT_URI = 'http://127.0.0.1:8080/login';

export const OIDC_TEST_CLIENT = { id: 'qc-console', secret: 'qc-console-secret' } as const;
/** Every scope the provider knows (openid: sub and amr; the others as their names say). */
export const OIDC_TEST_SCOPE = 'openid email profile groups aliases';

export interface OidcTestAccount {
  login: string;
  password: string;
  sub: string;
  email: string;
  email_verified?: boolean;
  given_name: string;
  family_name: string;
  groups: string[];
  mail_aliases?: string[];
  /** What the ID token's amr says (['pwd'] when absent). */
  amr?: string[];
}

export const OIDC_ACCOUNTS: readonly OidcTestAccount[] = JSON.parse(
  readFileSync(path.join(ROOT, 'test', 'oidc', 'accounts.json'), 'utf8'),
);

export function oidcAccount(login: string): OidcTestAccount {
  const a = OIDC_ACCOUNTS.find((x) => x.login === login);
  if (!a) throw new Error(`no test OpenID account ${login}`);
  return a;
}

export interface OidcProvider {
  issuer: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts a provider of its own on a free loopback port (the process picks it: no race). */
export async function startOidcProvider(opts: {
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  verbose?: boolean;
}): Promise<OidcProvider> {
  const args = [PROVIDER, '--port', '0', '--exit-with-stdin'];
  for (const uri of opts.redirectUris) args.push('--redirect-uri', uri);
  for (const uri of opts.postLogoutRedirectUris ?? []) args.push('--post-logout-redirect-uri', uri);
  if (opts.verbose) args.push('--verbose');
  // stdin stays open as a lifeline: if this process dies without stop(), the provider exits too.
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    stderr = (stderr + s).slice(-4000);
    if (opts.verbose) process.stderr.write(s);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };

  const issuer = await new Promise<string>((resolve, reject) => {
    let out: string | null = '';
    const failed = (why: string) => reject(new Error(`the test OpenID Provider ${why}; its stderr: ${stderr}`));
    const timer = setTimeout(() => failed('did not say ready within 15 s'), 15_000);
    child.once('exit', (code) => failed(`exited with code ${code} during start-up`));
    child.once('error', (err) => failed(`did not start (${err.message})`));
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      if (out === null) return; // ready already
      out += s;
      const m = /^ready (\S+)$/m.exec(out);
      if (m) {
        out = null;
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  }).catch(async (err) => {
    await stop();
    throw err;
  });
  return { issuer, port: Number(new URL(issuer).port), stop };
}

/** A browser's cookies for the provider, by name (its cookies all live on one host). */
export type OidcCookieJar = Map<string, string>;

/**
 * Does with fetch what a browser does: opens the authorization URL, fills in the provider's login
 * form (or presses Cancel), and follows the provider's redirects until one leads off its origin.
 * Returns that URL: the client's redirect URI with code, state and iss (or error=access_denied).
 * A jar shared between calls is one browser: its second sign-in needs no password (single sign-on).
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  password: string,
  opts: { cancel?: boolean; jar?: OidcCookieJar } = {},
): Promise<string> {
  const jar = opts.jar ?? new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let res = await fetchWithJar(jar, url);
  for (let step = 0; step < 20; step++) {
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).href;
      if (new URL(url).origin !== origin) return url;
      res = await fetchWithJar(jar, url);
      continue;
    }
    const body = await res.text();
    if (res.status === 200 && /^\/interaction\/[^/]+$/.test(new URL(url).pathname)) {
      if (body.includes('Invalid username or password')) {
        throw new Error(`the test OpenID Provider refused ${login}: Invalid username or password`);
      }
      const form = new URLSearchParams({ login, password });
      // A 303 onwards, or the form again (200) with its error: both handled on the next turn.
      res = await fetchWithJar(jar, `${url}/${opts.cancel ? 'abort' : 'login'}`, form);
      continue;
    }
    const text = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
    throw new Error(`the test OpenID Provider answered ${res.status} at ${url}: ${text.slice(0, 600)}`);
  }
  throw new Error(`the test OpenID Provider redirected more than 20 times from ${authorizationUrl}`);
}

async function fetchWithJar(jar: OidcCookieJar, url: string, form?: URLSearchParams): Promise<Response> {
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    body: form,
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
  });
  for (const line of res.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => /^\s*expires=.*1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a));
    if (!value || expired) jar.delete(name);
    else jar.set(name, value);
  }
  return res;
}
