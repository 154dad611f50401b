import { noticeTime, SECURITY_NOTICE_SUBJECTS, securityNotice, type SecurityNoticeKind } from './security-notices';

const KINDS = Object.keys(SECURITY_NOTICE_SUBJECTS) as SecurityNoticeKind[];
const AT = new Date('2026-11-22T22:46:00Z');

describe('security notices to an account’s owner', () => {
  test('a bilingual subject each, French first, with a no-break space before the French colon', () => {
    for (const kind of KINDS) {
      const subject = SECURITY_NOTICE_SUBJECTS[kind];
      expect(subject.startsWith('Quarantine Console\u00a0: ')).toBe(true);
      expect(subject.split(' / ')).toHaveLength(2);
    }
  });

  test('French, then English, each naming the account; the time in UTC in both', () => {
    expect(noticeTime(AT)).toEqual({ fr: '22 novembre 2026 à 22:46 UTC', en: '22 November 2026 at 22:46 UTC' });
    for (const kind of KINDS) {
      const { to, text } = securityNotice(kind, 'pat@example.com', { username: 'pat', at: AT, ip: '192.0.2.1' });
      expect(to).toBe('pat@example.com');
      const [fr, en, ...rest] = text.split('\n\n-----\n\n');
      expect(rest).toEqual([]);
      expect(fr).toContain('Quarantine Console de pat');
      expect(fr).toContain('22 novembre 2026 à 22:46 UTC');
      expect(en).toContain('Quarantine Console account of pat');
      expect(en).toContain('22 November 2026 at 22:46 UTC');
      // French typography: never an ordinary space before : ; ? !
      expect(fr).not.toMatch(/ [:;?!]/);
    }
  });

  test('the client address is said when known, and only then', () => {
    const withIp = securityNotice('mfa_disabled', 'pat@example.com', { username: 'pat', at: AT, ip: '192.0.2.1' });
    expect(withIp.text).toContain('depuis l’adresse 192.0.2.1');
    expect(withIp.text).toContain('from the address 192.0.2.1');
    const without = securityNotice('mfa_disabled', 'pat@example.com', { username: 'pat', at: AT, ip: null });
    expect(without.text).not.toMatch(/adresse |address /);
  });

  test('a password set by an administrator says so, and tells the owner what to do', () => {
    const { text } = securityNotice('password_changed', 'pat@example.com', {
      username: 'pat',
      at: AT,
      ip: null,
      byAdministrator: true,
    });
    expect(text).toContain('Un administrateur a changé le mot de passe');
    expect(text).toContain('An administrator changed the password');
  });

  test('the second-factor notices say the password is known, and how many wrong codes when told', () => {
    const replay = securityNotice('totp_replay', 'pat@example.com', { username: 'pat', at: AT, ip: null }).text;
    expect(replay).toContain('quelqu’un connaît votre mot de passe et a pu voir l’un de vos codes');
    expect(replay).toContain('someone knows your password and may have seen one of your codes');
    const burst = securityNotice('mfa_failures', 'pat@example.com', { username: 'pat', at: AT, ip: null, failures: 7 });
    expect(burst.text).toContain('à répétition (7 fois)');
    expect(burst.text).toContain('repeatedly (7 times)');
    expect(burst.text).toContain('someone knows your password: change it at once');
  });

  test('no notice carries a link (nothing to click in a security e-mail)', () => {
    for (const kind of KINDS) {
      expect(securityNotice(kind, 'pat@example.com', { username: 'pat', at: AT, ip: null }).text).not.toMatch(
        /https?:/,
      );
    }
  });
});
