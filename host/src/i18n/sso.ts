import { addShellStrings } from './index';
import ssoEn from './sso.en';
import ssoFr from './sso.fr';

/** The single sign-on texts (key `sso` of the `host` namespace), registered by the lazy "sso" chunk. */
export function registerSsoStrings() {
  return addShellStrings({ fr: { sso: ssoFr }, en: { sso: ssoEn } });
}

export { ssoEn, ssoFr };
