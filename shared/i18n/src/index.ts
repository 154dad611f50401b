/**
 * @qc/i18n: wiring for the ONE i18next instance of the page. i18next and react-i18next are MF
 * singletons, so the default `i18next` instance is the same object in the host and every remote;
 * this package (bundled into each app) initialises it once and lets each app add its namespace
 * (namespace = app id: common, host, mail, admin, rspamd, haraka).
 * Language: French unless a choice is stored under `i18nextLng`; English is the fallback; the
 * browser's language is never used (DESIGN §10).
 */
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import commonEn from './locales/common.en';
import commonFr from './locales/common.fr';

export const LANGUAGES = ['fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'fr';
export const FALLBACK_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';
export const COMMON_NS = 'common';

export type NamespaceResources = Record<Language, Record<string, unknown>>;

export function isLanguage(v: unknown): v is Language {
  return typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);
}

/** The stored choice, else French. */
export function storedLanguage(): Language {
  try {
    const v = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(v) ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

function setDocumentLanguage(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

/** Initialise the shared instance (once; later calls return it) and add `common`. */
export function initI18n(): I18n {
  if (!i18next.isInitialized) {
    const lng = storedLanguage();
    void i18next.use(initReactI18next).init({
      lng,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: [COMMON_NS],
      defaultNS: COMMON_NS,
      resources: { fr: { [COMMON_NS]: commonFr }, en: { [COMMON_NS]: commonEn } },
      interpolation: { escapeValue: false }, // React escapes
      returnNull: false,
      initAsync: false,
    });
    setDocumentLanguage(lng);
  } else {
    // The instance is the host's (MF singleton), with the host's `common`: a remote built later may
    // need keys the host's copy lacks. Add them, never overwriting what is there.
    for (const [lng, resources] of [
      ['fr', commonFr],
      ['en', commonEn],
    ] as const)
      i18next.addResourceBundle(lng, COMMON_NS, resources, true, false);
  }
  return i18next;
}

/** Add (or complete) an app's namespace in every language. Initialises i18next if needed. */
export function addNamespace(ns: string, resources: NamespaceResources): I18n {
  const instance = initI18n();
  for (const lng of LANGUAGES) {
    if (!instance.hasResourceBundle(lng, ns)) instance.addResourceBundle(lng, ns, resources[lng], true, true);
  }
  return instance;
}

/** Switch language for the whole page (host and remotes) and remember it. */
export async function changeLanguage(lng: Language): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lng);
  } catch {
    /* storage disabled: this page only */
  }
  await initI18n().changeLanguage(lng);
  setDocumentLanguage(lng);
}

export function currentLanguage(): Language {
  const lng = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

export { commonFr, commonEn, i18next };
