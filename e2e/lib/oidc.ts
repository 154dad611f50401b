import { stack, type OidcInfo } from './stack';

/** The run's OpenID Provider (lib/oidc-harness.ts), or the reason it did not start. */
export function oidcInfo(): OidcInfo {
  const s = stack();
  if (!s.oidc) throw new Error(`the e2e OpenID Provider did not start: ${s.oidcError ?? 'unknown reason'}`);
  return s.oidc;
}
