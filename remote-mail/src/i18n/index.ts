import { addNamespace } from '@qc/i18n';
import mailEn from './mail.en';
import mailFr from './mail.fr';

/** Namespace of this remote (namespace = app id). */
export const MAIL_NS = 'mail';

export function registerMailNamespace() {
  return addNamespace(MAIL_NS, { fr: mailFr, en: mailEn });
}

export { mailFr, mailEn };
