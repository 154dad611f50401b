import type { Config } from './config';
import type { Db, Dialect } from './db/database';
import type { Mailer } from './lib/mailer';
import type { PasswordHasher } from './lib/passwords';
import type { Directory } from './modules/directory/directory';
import type { OidcClient } from './modules/oidc/oidc-client';
import type { TokenService } from './modules/auth/tokens';

/** What route plugins and services need; built once per app instance. */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  passwords: PasswordHasher;
  tokens: TokenService;
  mailer: Mailer;
  /** The organisation's directory (QC_LDAP_URL); null: none configured. */
  directory: Directory | null;
  /** The OpenID Provider people sign in with (QC_OIDC_ISSUER); null: none configured. */
  oidc: OidcClient | null;
}
