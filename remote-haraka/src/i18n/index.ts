import { addNamespace } from '@qc/i18n';
import harakaEn from './haraka.en';
import harakaFr from './haraka.fr';

/** Namespace of this remote (namespace = app id). */
export const HARAKA_NS = 'haraka';

export function registerHarakaNamespace() {
  return addNamespace(HARAKA_NS, { fr: harakaFr, en: harakaEn });
}

export { harakaFr, harakaEn };
