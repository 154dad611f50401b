/**
 * What the logs must never hold in clear (secrets never in a log): the value of every
 * credential-like query parameter and header, and a secret carried in a path. One rule for all:
 * a name is credential-like when one of its words is a credential word (`token`, `x_token`,
 * `X-Api-Key`, `refresh_token`, `client_secret`…) or when it ends with one (`accesstoken`, `apikey`).
 */
export const REDACTED = '[redacted]';

const CREDENTIAL_WORDS = new Set([
  'token',
  'jwt',
  'bearer',
  'code',
  'otp',
  'totp',
  'ticket',
  'state', // OpenID Connect's: the callback's key to its sign-in
  'nonce',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'pass',
  'pw',
  'pin',
  'hmac',
  'secret',
  'key',
  'apikey',
  'signature',
  'sig',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'session',
  'sessionid',
  'sid',
  'cookie',
  'assertion',
  'samlresponse',
]);

/** Words long enough to be told at the end of a name written without separators ('monkey' is no key). */
const SUFFIX_WORDS = [...CREDENTIAL_WORDS].filter((w) => w.length >= 5);

/** `X-Api-Key` → x, api, key; `accessToken` → access, token; `refresh_token` → refresh, token. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function isCredentialName(name: string): boolean {
  const words = wordsOf(name);
  if (words.some((w) => CREDENTIAL_WORDS.has(w))) return true;
  const compact = words.join('');
  return SUFFIX_WORDS.some((w) => compact.endsWith(w));
}

/** Percent-decoded (and `+` as a space, as in a query); the text itself when it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Path namespaces whose segments are route names, not secrets (/api/auth/login/, /api/auth/refresh/). */
const ROUTE_NAMESPACES = new Set(['auth']);

/**
 * Path segments that carry a secret: the one after a credential-like segment, or after `digest`
 * (an e-mailed digest link, /digest/<token> and /api/digest/<token>/, is a signed credential).
 * Decoded first: the router decodes, so /api/%64igest/<token>/ reaches the digest route too.
 */
function redactPath(path: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, i) => {
      const parent = i > 0 ? decoded(segments[i - 1]!).toLowerCase() : '';
      const secretAfter = parent === 'digest' || (isCredentialName(parent) && !ROUTE_NAMESPACES.has(parent));
      return segment && secretAfter ? REDACTED : segment;
    })
    .join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      return isCredentialName(decoded(pair.slice(0, eq))) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * A URL (a request's path and query, as received) with its secrets replaced; the names and the rest
 * kept. A fragment is read like a query (`/login/sso#ticket=…`).
 */
export function redactUrl(url: string): string {
  const [beforeHash, ...fragment] = url.split('#');
  const [path, ...query] = beforeHash!.split('?');
  return (
    redactPath(path!) +
    (query.length ? `?${redactQuery(query.join('?'))}` : '') +
    (fragment.length ? `#${redactQuery(fragment.join('#'))}` : '')
  );
}

/** Headers as a log may show them: credential-like ones (authorization, cookie, x-api-key…) redacted. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      isCredentialName(name) && value !== undefined ? REDACTED : value,
    ]),
  );
}
