// A real OpenID Provider for the tests (oidc-provider, panva's certified implementation), in a
// process of its own on loopback:
//
//   node test/oidc/provider.mjs --port P --redirect-uri URI... [--post-logout-redirect-uri URI]...
//                               [--verbose] [--exit-with-stdin]
//
// Issuer http://127.0.0.1:P (--port 0: a free port); prints `ready http://127.0.0.1:P` once listening.
// One confidential client: qc-console / qc-console-secret (client_secret_basic, code flow, PKCE
// S256 required). Scopes openid (sub, amr), email, profile, groups, aliases; every claim goes into
// the ID token itself. Consent is automatic; the login page is our own (/interaction/:uid).
//
// The people, from accounts.json; every password is <login>-pass, and is for tests only:
//   alice  alice@example.com, verified; groups qc-admins;
//          mail_aliases alice.smith@example.com, alice@elsewhere.test
//   bob    bob@example.com, verified; no groups
//   carol  carol@example.com, email_verified false
//   dave   dave@elsewhere.test (a foreign domain), verified
//   erin   erin@example.com, verified; groups qc-domain-admins; amr pwd + otp
//   frank  frank@example.com, no email_verified claim at all
//   ivan   ivan@example.com, verified; no groups
//   oscar  oscar@example.org, verified; no groups (the e2e run: no directory person has this address)
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import Provider from 'oidc-provider';

const CLIENT_ID = 'qc-console';
const CLIENT_SECRET = 'qc-console-secret';
const TEN_MINUTES = 600;

function fail(message) {
  process.stderr.write(`provider.mjs: ${message}\n`);
  process.exit(1);
}

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      port: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true, default: [] },
      'post-logout-redirect-uri': { type: 'string', multiple: true, default: [] },
      verbose: { type: 'boolean', default: false },
      'exit-with-stdin': { type: 'boolean', default: false },
    },
  }));
} catch (err) {
  fail(err.message);
}
const port = Number(args.port);
if (!/^\d+$/.test(args.port ?? '') || port > 65535) fail('--port <0-65535> is required');
if (!args['redirect-uri'].length) fail('at least one --redirect-uri is required');

// oidc-provider's notices ("you SHOULD change the default …", "in-memory adapter") are about
// production set-ups: said once per process, they would only clutter the tests' output.
if (!args.verbose) {
  for (const level of ['info', 'warn']) {
    const write = console[level];
    console[level] = (...a) =>
      /^oidc-provider (NOTICE|WARNING): (default|a quick start)/.test(a[0]) ? undefined : write(...a);
  }
}

const accounts = JSON.parse(readFileSync(new URL('./accounts.json', import.meta.url), 'utf8'));
const bySub = new Map(accounts.map((a) => [a.sub, a]));
const byLogin = new Map(accounts.map((a) => [a.login, a]));

/** The claims of a person: oidc-provider itself keeps only those the granted scopes allow. */
function claimsOf(a) {
  const claims = {
    sub: a.sub,
    email: a.email,
    email_verified: a.email_verified,
    name: `${a.given_name} ${a.family_name}`,
    given_name: a.given_name,
    family_name: a.family_name,
    groups: a.groups,
    mail_aliases: a.mail_aliases,
  };
  for (const k of Object.keys(claims)) if (claims[k] === undefined) delete claims[k]; // absent, not null
  return claims;
}

const html = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const page = (title, body) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title></head>` +
  `<body><h1>${html(title)}</h1>${body}</body></html>`;

function loginForm(uid, error) {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return page(
    'Test OpenID Provider: sign in',
    (error ? `<p role="alert">${html(error)}</p>` : '') +
      `<form method="post" action="${action}/login">` +
      '<p><label for="login">Username</label> <input id="login" name="login" autocomplete="username" autofocus></p>' +
      '<p><label for="password">Password</label> ' +
      '<input id="password" name="password" type="password" autocomplete="current-password"></p>' +
      '<p><button type="submit">Sign in</button> ' +
      `<button type="submit" formaction="${action}/abort">Cancel</button></p></form>`,
  );
}

function configuration() {
  // Each process is throwaway: a fresh signing key each time.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: args['redirect-uri'],
        post_logout_redirect_uris: args['post-logout-redirect-uri'],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'qc-test', alg: 'RS256', use: 'sig' }] },
    pkce: { required: () => true }, // S256 is the only method oidc-provider 9 knows
    claims: {
      openid: ['sub', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
      groups: ['groups'],
      aliases: ['mail_aliases'],
    },
    conformIdTokenClaims: false, // the api reads every claim from the ID token
    findAccount: (_ctx, sub) => {
      const a = bySub.get(sub);
      return a && { accountId: sub, claims: () => claimsOf(a) };
    },
    // No consent page: the client gets whatever it asks for (a grant covering the request).
    loadExistingGrant: async (ctx) => {
      const { Grant } = ctx.oidc.provider;
      const { client, session, result } = ctx.oidc;
      const grantId = result?.consent?.grantId || session.grantIdFor(client.clientId);
      let grant = grantId && (await Grant.find(grantId));
      if (!grant || grant.accountId !== session.accountId) {
        grant = new Grant({ clientId: client.clientId, accountId: session.accountId });
      }
      grant.addOIDCScope([...ctx.oidc.requestParamOIDCScopes].join(' '));
      if (ctx.oidc.requestParamClaims.size) grant.addOIDCClaims([...ctx.oidc.requestParamClaims]);
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // The default page, without its web font: "Yes, sign me out" ends the session.
        logoutSource: (ctx, form) => {
          ctx.body = page(
            'Sign out',
            `<p>Do you want to sign out from ${html(ctx.host)}?</p>${form}` +
              '<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button> ' +
              '<button type="submit" form="op.logoutForm">No, stay signed in</button>',
          );
        },
      },
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Test OpenID Provider: error', `<pre>${html(JSON.stringify(out, null, 2))}</pre>`);
    },
    // Browser cookies ignore ports: the console on another port of 127.0.0.1 must not see ours.
    cookies: {
      names: { session: 'op_session', interaction: 'op_interaction', resume: 'op_interaction_resume' },
      keys: ['qc-test-oidc-cookie-key'],
    },
    ttl: {
      AuthorizationCode: 60,
      IdToken: TEN_MINUTES,
      AccessToken: TEN_MINUTES,
      Session: TEN_MINUTES,
      Interaction: TEN_MINUTES,
      Grant: TEN_MINUTES,
    },
  };
}

async function readForm(req) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

/** Our login page: GET /interaction/:uid, POST /interaction/:uid/login and /interaction/:uid/abort. */
async function interaction(provider, req, res) {
  const m = /^\/interaction\/([^/]+)(?:\/(login|abort))?$/.exec(new URL(req.url, 'http://x').pathname);
  if (!m || (m[2] ? req.method !== 'POST' : req.method !== 'GET')) return send(res, 404, page('Not found', ''));
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch (err) {
    return send(res, 400, page('Sign-in request expired', `<p>${html(err.error_description || err.message)}</p>`));
  }
  const uid = decodeURIComponent(m[1]);
  if (details.uid !== uid) return send(res, 400, page('Sign-in request mismatch', ''));
  if (details.prompt.name === 'consent') return consent(provider, details, req, res);
  if (details.prompt.name !== 'login') throw new Error(`unexpected prompt ${details.prompt.name}`);
  if (!m[2]) return send(res, 200, loginForm(uid));
  if (m[2] === 'abort') {
    const result = { error: 'access_denied', error_description: 'The person cancelled' };
    return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }
  const form = await readForm(req);
  const a = byLogin.get(form.get('login') ?? '');
  if (!a || a.password !== form.get('password')) return send(res, 200, loginForm(uid, 'Invalid username or password'));
  // The ID token's amr comes from here (the session's login), not from findAccount's claims.
  const login = { accountId: a.sub, amr: a.amr ?? ['pwd'] };
  return provider.interactionFinished(req, res, { login }, { mergeWithLastSubmission: false });
}

/** Only when the client asks for it (prompt=consent): granted at once, like loadExistingGrant. */
async function consent(provider, details, req, res) {
  const { Grant } = provider;
  const { accountId } = details.session;
  const grant =
    (details.grantId && (await Grant.find(details.grantId))) ||
    new Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope(details.params.scope);
  const result = { consent: { grantId: await grant.save() } };
  return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}

// Listen first (port 0 gives a free one), then build the provider for the issuer that port makes.
let provider;
let callback;
const server = http.createServer((req, res) => {
  if (!callback) return send(res, 503, page('Starting', '')); // listening, not configured yet
  if (!req.url.startsWith('/interaction/')) return callback(req, res);
  interaction(provider, req, res).catch((err) => {
    if (args.verbose) console.error('interaction error:', err);
    if (!res.headersSent) send(res, 500, page('Server error', `<p>${html(err.message)}</p>`));
    else res.end();
  });
});
server.once('error', (err) => fail(`cannot listen on 127.0.0.1:${port}: ${err.message}`));
server.listen(port, '127.0.0.1', async () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  try {
    provider = new Provider(issuer, configuration());
    await provider.Client.find(CLIENT_ID); // the client's metadata is checked when first used
  } catch (err) {
    fail(`bad configuration: ${err.error_description || err.message}`);
  }
  callback = provider.callback();
  if (args.verbose) {
    for (const event of ['server_error', 'authorization.error', 'grant.error', 'end_session.error']) {
      provider.on(event, (_ctx, err) => console.error(`${event}:`, err));
    }
  }
  process.stdout.write(`ready ${issuer}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
// Started by a test (api/src/test/oidc-provider.ts): when that process goes, so does this one.
if (args['exit-with-stdin']) process.stdin.on('end', () => process.exit(0)).resume();
