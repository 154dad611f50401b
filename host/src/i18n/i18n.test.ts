import { i18next } from '@qc/i18n';
import { hostEn, hostFr } from './index';
import { registerShellStrings, shellEn, shellFr } from './shell';

function leafKeys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? leafKeys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
function leafValues(o: Record<string, unknown>): unknown[] {
  return Object.values(o).flatMap((v) => (v && typeof v === 'object' ? leafValues(v as Record<string, unknown>) : [v]));
}

describe('host namespace', () => {
  it('French and English have the same keys, all non-empty strings', () => {
    expect(leafKeys(hostEn).sort()).toEqual(leafKeys(hostFr).sort());
    for (const v of [...leafValues(hostFr), ...leafValues(hostEn)])
      expect(typeof v === 'string' && v.length > 0).toBe(true);
  });

  it('carries the spec texts verbatim', () => {
    expect(hostFr.login.error).toBe('Échec de la connexion. Vérifiez vos identifiants.');
    expect(hostFr.login.success).toBe('Connexion réussie');
    expect(hostFr.login.totp_error).toBe('Échec de la vérification du code. Veuillez réessayer.');
    expect(hostFr.logout.success).toBe('Vous avez été déconnecté');
    expect(hostFr.login.partial_token_missing).toBe('Jeton partiel non disponible');
    expect(hostFr.error_page.title).toBe('Unexpected Application Error!');
  });
});

describe('protected pages’ texts (lazy part of the host namespace)', () => {
  it('French and English have the same keys, all non-empty strings, none shadowing the eager ones', () => {
    expect(leafKeys(shellEn).sort()).toEqual(leafKeys(shellFr).sort());
    for (const v of [...leafValues(shellFr), ...leafValues(shellEn)])
      expect(typeof v === 'string' && v.length > 0).toBe(true);
    const eager = new Set(leafKeys(hostFr));
    expect(leafKeys(shellFr).filter((k) => eager.has(k))).toEqual([]);
  });

  it('carries the English texts of spec §5 and §8 verbatim', () => {
    const t = i18next.getFixedT('en', 'host');
    registerShellStrings();
    expect(t('profile.info.success')).toBe('Profile updated successfully');
    expect(t('profile.info.error')).toBe('Error updating profile');
    expect(t('profile.password.success')).toBe('Password changed successfully');
    expect(t('profile.password.error')).toBe('Error changing password');
    expect(t('profile.password.too_short', { min: 8 })).toBe('Password must be at least 8 characters long');
    expect(t('profile.password.mismatch')).toBe('Passwords do not match');
    expect(t('mfa.enabled')).toBe('Two-factor authentication successfully enabled');
    expect(t('mfa.error')).toBe('MFA error');
    expect(t('mfa.verify_error')).toBe('Error verifying TOTP code');
    expect(t('mfa.code_wrong')).toMatch(/^Invalid TOTP code\./);
    expect(t('settings.preferences.success')).toBe('Preferences saved successfully');
    expect(t('settings.preferences.error')).toBe('Error saving preferences');
    expect(t('settings.preferences.sync_error')).toBe('Error synchronizing with server');
    expect(t('quarantine_notifications.success')).toBe('Settings saved');
    expect(t('feedback.validation.type')).toBe('Please select a feedback type');
    expect(t('feedback.validation.message_required')).toBe('Please enter a message');
    expect(t('feedback.validation.message_too_short', { min: 10 })).toBe('Message must be at least 10 characters long');
    expect(t('feedback.validation.email')).toBe('Invalid email format');
    expect(t('feedback.validation.not_image')).toBe('Please upload only image files');
    expect(t('feedback.success')).toBe('Thank you for your feedback!');
    expect(t('feedback.error')).toBe('Failed to submit feedback. Please try again.');
    expect(i18next.getFixedT('en', 'common')('errors.network')).toBe(
      'Could not contact the server. Please check your connection.',
    );
  });

  it('registering them keeps the eager texts', () => {
    registerShellStrings();
    expect(i18next.getFixedT('fr', 'host')('login.success')).toBe('Connexion réussie');
    expect(i18next.getFixedT('fr', 'host')('feedback.button')).toBe('Envoyer un avis');
  });
});

describe('texts of the lazy public chunks (set-up step of /login, single sign-on, invitation and digest link pages)', () => {
  it('French and English have the same keys, all non-empty, none shadowing the eager ones', async () => {
    const { invitationEn, invitationFr } = await import('./invitation');
    const { mfaEn, mfaFr } = await import('./mfa');
    const { digestLinkEn, digestLinkFr } = await import('./digest-link');
    const { ssoEn, ssoFr } = await import('./sso');
    for (const [fr, en] of [
      [{ sso: ssoFr }, { sso: ssoEn }],
      [{ invitation: invitationFr }, { invitation: invitationEn }],
      [{ digest_link: digestLinkFr }, { digest_link: digestLinkEn }],
      [{ mfa: mfaFr }, { mfa: mfaEn }],
    ] as const) {
      expect(leafKeys(en).sort()).toEqual(leafKeys(fr).sort());
      for (const v of [...leafValues(fr), ...leafValues(en)]) expect(typeof v === 'string' && v.length > 0).toBe(true);
      const eager = new Set(leafKeys(hostFr));
      expect(leafKeys(fr).filter((k) => eager.has(k))).toEqual([]);
    }
    // The protected pages' two-factor texts are these very ones.
    expect(shellFr.mfa).toBe(mfaFr);
    expect(shellEn.mfa).toBe(mfaEn);
  });
});
