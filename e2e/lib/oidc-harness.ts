import path from 'node:path';
import { ROOT, type OidcInfo } from './stack';

/**
 * The OpenID Provider of an e2e run (issue 32), started ONCE by global-setup.ts: a real
 * oidc-provider process of its own (test/oidc/provider.mjs through the api tests' helper), with the
 * run's api as its client (redirect and post-logout URIs on the api's port).
 */

/** What the specs use of api/src/test/oidc-provider.ts (loaded at run time: the e2e typecheck stays out of the api). */
interface OidcHelpers {
  startOidcProvider(opts: {
    redirectUris: string[];
    postLogoutRedirectUris?: string[];
  }): Promise<{ issuer: string; stop(): Promise<void> }>;
  OIDC_TEST_CLIENT: { id: string; secret: string };
  oidcAccount(login: string): { login: string; password: string; email: string };
}

export interface OidcHarness {
  /** The api's QC_OIDC_* variables. */
  env: Record<string, string>;
  info: OidcInfo;
  close(): Promise<void>;
}

export async function startOidcHarness(apiOrigin: string): Promise<OidcHarness> {
  const helpers = (await import(path.join(ROOT, 'api/src/test/oidc-provider.ts'))) as OidcHelpers;
  const provider = await helpers.startOidcProvider({
    redirectUris: [`${apiOrigin}/api/auth/oidc/callback/`],
    postLogoutRedirectUris: [`${apiOrigin}/login`],
  });
  const person = (login: string) => {
    const a = helpers.oidcAccount(login);
    return { login: a.login, password: a.password, email: a.email };
  };
  return {
    env: {
      QC_OIDC_ISSUER: provider.issuer,
      QC_OIDC_CLIENT_ID: helpers.OIDC_TEST_CLIENT.id,
      QC_OIDC_CLIENT_SECRET: helpers.OIDC_TEST_CLIENT.secret,
      QC_OIDC_SCOPES: 'openid email profile groups aliases',
      QC_OIDC_ALIASES_CLAIM: 'mail_aliases',
      QC_OIDC_ADMIN_GROUP: 'qc-admins',
      QC_OIDC_DOMAIN_ADMIN_GROUP: 'qc-domain-admins',
      QC_OIDC_LABEL: 'Test SSO',
    },
    info: {
      issuer: provider.issuer,
      label: 'Test SSO',
      people: { oscar: person('oscar'), carol: person('carol') },
    },
    close: () => provider.stop(),
  };
}
