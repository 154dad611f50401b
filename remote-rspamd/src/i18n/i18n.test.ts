import { registerRspamdNamespace, rspamdEn, rspamdFr } from './index';

function leafKeys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? leafKeys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('rspamd namespace', () => {
  it('French and English have the same keys, none empty', () => {
    expect(leafKeys(rspamdEn).sort()).toEqual(leafKeys(rspamdFr).sort());
    const i18n = registerRspamdNamespace();
    for (const lng of ['fr', 'en']) {
      const t = i18n.getFixedT(lng, 'rspamd');
      for (const key of leafKeys(rspamdFr)) expect(t(key)).not.toBe('');
    }
  });

  it('spec §5 and §8 messages, word for word in English', () => {
    expect(rspamdEn.kinds.filter.created).toBe('Filter successfully created');
    expect(rspamdEn.kinds.filter.updated).toBe('Filter successfully updated');
    expect(rspamdEn.kinds.filter.deleted).toBe('Filter successfully deleted');
    expect(rspamdEn.kinds.filter.error_title).toBe('Error loading filters');
    expect(rspamdEn.errors.action_required).toBe('Action is required');
    expect(rspamdEn.errors.pattern_required).toBe('Pattern is required');
    expect(rspamdEn.errors.description_too_short).toBe('Description is too short');
    expect(rspamdFr.kinds.filter.error_title).toBe('Erreur lors du chargement des filtres');
  });

  it('every family explains what it matches; `special` is the Subject header', () => {
    for (const ns of [rspamdFr, rspamdEn]) {
      for (const family of Object.values(ns.families)) expect(family.matches.length).toBeGreaterThan(40);
      expect(ns.families.special.matches).toContain('Subject');
    }
  });
});
