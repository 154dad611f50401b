import { addShellStrings } from './index';
import shellEn from './shell.en';
import shellFr from './shell.fr';

/**
 * The protected pages' texts (profile, MFA, settings, feedback): imported only by the lazy shell
 * chunk (and tests), never by /login.
 */
export function registerShellStrings() {
  return addShellStrings({ fr: shellFr, en: shellEn });
}

export { shellFr, shellEn };
