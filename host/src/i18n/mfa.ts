import { addShellStrings } from './index';
import mfaEn from './mfa.en';
import mfaFr from './mfa.fr';

/**
 * The two-factor texts alone (key `mfa` of the `host` namespace): the lazy set-up step of /login
 * registers them, without the rest of the protected pages' texts.
 */
export function registerMfaStrings() {
  return addShellStrings({ fr: { mfa: mfaFr }, en: { mfa: mfaEn } });
}

export { mfaEn, mfaFr };
