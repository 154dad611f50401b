import { addNamespace } from '@qc/i18n';
import rspamdEn from './rspamd.en';
import rspamdFr from './rspamd.fr';

/** Namespace of this remote (namespace = app id). */
export const RSPAMD_NS = 'rspamd';

export function registerRspamdNamespace() {
  return addNamespace(RSPAMD_NS, { fr: rspamdFr, en: rspamdEn });
}

export { rspamdFr, rspamdEn };
