import { harakaEn, harakaFr, registerHarakaNamespace } from './index';

function leafKeys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? leafKeys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('haraka namespace', () => {
  it('French and English have the same keys, none empty', () => {
    expect(leafKeys(harakaEn).sort()).toEqual(leafKeys(harakaFr).sort());
    const i18n = registerHarakaNamespace();
    for (const lng of ['fr', 'en']) {
      const t = i18n.getFixedT(lng, 'haraka');
      for (const key of leafKeys(harakaFr)) expect(t(key)).not.toBe('');
    }
  });

  it('spec §8 messages, word for word in English', () => {
    expect(harakaEn.uuid.invalid).toBe('Error loading logs. Check the UUID.');
    expect(harakaEn.logs.uuid_box.invalid).toBe('Error loading logs. Check the UUID.');
    expect(harakaEn.uuid.not_found).toBe('No logs found for this email or UUID');
    // French is translated, not left in English.
    expect(harakaFr.uuid.not_found).not.toBe(harakaEn.uuid.not_found);
    expect(harakaFr.uuid.invalid).not.toBe(harakaEn.uuid.invalid);
  });
});
