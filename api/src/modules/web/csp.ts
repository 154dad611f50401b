/**
 * DESIGN §7: no inline script anywhere; antd's CSS-in-JS needs inline styles. Remotes on another
 * origin (absolute URLs in /remotes.json) may load scripts and be fetched.
 */
export function consoleCsp(remoteOrigins: readonly string[]): string {
  const remotes = remoteOrigins.map((o) => ` ${o}`).join('');
  return [
    "default-src 'self'",
    `script-src 'self'${remotes}`,
    "style-src 'self' 'unsafe-inline'",
    // https: images: the sandboxed srcdoc frame of an e-mail preview inherits this policy, and shows
    // remote images once the user asks for them (the sanitiser removes them until then).
    "img-src 'self' data: https:",
    `connect-src 'self'${remotes}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Swagger UI's own page: its scripts are files, but it styles inline and shows data: images. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DOCS_PREFIX = '/api/docs';

/** The api's JSON answers are never rendered as a page: nothing may load, nothing may frame them. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
export const API_PREFIX = '/api/';
