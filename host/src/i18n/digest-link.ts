import digestLinkEn from './digest-link.en';
import digestLinkFr from './digest-link.fr';
import { addShellStrings } from './index';

/** The digest links' page texts (key `digest_link` of the `host` namespace), registered by its lazy chunk. */
export function registerDigestLinkStrings() {
  return addShellStrings({ fr: { digest_link: digestLinkFr }, en: { digest_link: digestLinkEn } });
}

export { digestLinkEn, digestLinkFr };
