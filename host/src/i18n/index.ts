import { addNamespace, initI18n, LANGUAGES } from '@qc/i18n';
import hostEn from './host.en';
import hostFr from './host.fr';

/** Namespace of the host app (namespace = app id). */
export const HOST_NS = 'host';

export function registerHostNamespace() {
  return addNamespace(HOST_NS, { fr: hostFr, en: hostEn });
}

export { hostFr, hostEn };

/** Resources of the protected pages, merged into `host` by registerShellStrings(). */
export interface ShellStrings {
  fr: Record<string, unknown>;
  en: Record<string, unknown>;
}

/**
 * Adds the protected pages' texts to the `host` namespace (deep merge, never overwriting). Called by
 * the lazy shell chunk, which imports the resources itself, so /login never downloads them.
 */
export function addShellStrings(strings: ShellStrings) {
  registerHostNamespace();
  const i18n = initI18n();
  for (const lng of LANGUAGES) i18n.addResourceBundle(lng, HOST_NS, strings[lng], true, false);
  return i18n;
}
