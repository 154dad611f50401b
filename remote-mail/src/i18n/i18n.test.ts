import { mailEn, mailFr } from './index';

function leafKeys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? leafKeys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('mail namespace', () => {
  it('French and English have the same keys', () => {
    expect(leafKeys(mailEn).sort()).toEqual(leafKeys(mailFr).sort());
    expect(mailFr.dashboard.reload).toBe('Actualiser');
  });
});
