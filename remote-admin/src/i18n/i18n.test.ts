import { DOMAIN_HAS_USERS_MESSAGE } from '@qc/contracts';
import { adminEn, adminFr, registerAdminNamespace } from './index';

function leafKeys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? leafKeys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('admin namespace', () => {
  it('French and English have the same keys, none empty', () => {
    expect(leafKeys(adminEn).sort()).toEqual(leafKeys(adminFr).sort());
    const i18n = registerAdminNamespace();
    for (const lng of ['fr', 'en']) {
      const t = i18n.getFixedT(lng, 'admin');
      for (const key of leafKeys(adminFr)) expect(t(key)).not.toBe('');
    }
  });

  it('spec §5 and §8 messages', () => {
    expect(adminEn.errors.domain_has_users).toBe(DOMAIN_HAS_USERS_MESSAGE);
    expect(adminEn.user.delete.done).toBe('User successfully deleted');
    expect(adminEn.domain.delete.done).toBe('Domain successfully deleted');
    expect(adminEn.users.error_title).toBe('Error loading users');
    expect(adminEn.domains.error_title).toBe('Error loading domains');
    expect(adminFr.users.error_title).toBe('Erreur lors du chargement des utilisateurs');
  });
});
