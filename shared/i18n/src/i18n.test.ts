import { addNamespace, changeLanguage, commonEn, commonFr, i18next, initI18n, storedLanguage } from './index';

/** Every leaf key of a resource object, as dotted paths. */
export function leafKeys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? leafKeys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('@qc/i18n', () => {
  it('common: French and English have exactly the same keys, none empty', () => {
    expect(leafKeys(commonEn).sort()).toEqual(leafKeys(commonFr).sort());
    initI18n();
    for (const k of leafKeys(commonFr)) expect(i18next.getFixedT('fr', 'common')(k)).not.toBe('');
  });

  it('a later copy of this package (a remote) adds the common keys the first one lacked, overwriting none', () => {
    initI18n();
    // As if the host had been built before `pager` existed, with its own wording of a key.
    const { pager: _absent, ...older } = structuredClone(commonFr);
    i18next.removeResourceBundle('fr', 'common');
    i18next.addResourceBundle('fr', 'common', { ...older, actions: { ...older.actions, retry: 'Encore' } });
    expect(i18next.getFixedT('fr', 'common')('pager.next')).toBe('Next page'); // the English fallback
    initI18n();
    expect(i18next.getFixedT('fr', 'common')('pager.next')).toBe('Page suivante');
    expect(i18next.getFixedT('fr', 'common')('actions.retry')).toBe('Encore');
    i18next.removeResourceBundle('fr', 'common');
    i18next.addResourceBundle('fr', 'common', commonFr);
  });

  it('defaults to French and never uses the browser language', () => {
    localStorage.clear();
    Object.defineProperty(navigator, 'language', { value: 'en-US', configurable: true });
    expect(storedLanguage()).toBe('fr');
    initI18n();
    expect(i18next.language).toBe('fr');
    expect(i18next.t('actions.retry')).toBe('Réessayer');
  });

  it('remembers the choice under i18nextLng and falls back to English', async () => {
    await changeLanguage('en');
    expect(localStorage.getItem('i18nextLng')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18next.t('actions.retry')).toBe('Retry');
    addNamespace('demo', { fr: { only_fr: 'seulement', both: 'les deux' }, en: { both: 'both' } });
    await changeLanguage('fr');
    expect(i18next.t('demo:both')).toBe('les deux');
    expect(storedLanguage()).toBe('fr');
    localStorage.setItem('i18nextLng', 'de');
    expect(storedLanguage()).toBe('fr');
  });
});
