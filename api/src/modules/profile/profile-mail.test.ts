import {
  EMAIL_CHANGE_NOTICE_SUBJECT,
  EMAIL_CHANGE_SUBJECT,
  EMAIL_IN_USE_SUBJECT,
  emailChangeNoticeText,
  emailChangeText,
  emailInUseText,
  hoursText,
} from './profile.service';

describe('the e-mail-address-change confirmation e-mail', () => {
  it('has a bilingual subject, French first (a no-break space before the French colon)', () => {
    expect(EMAIL_CHANGE_SUBJECT).toBe(
      'Quarantine Console\u00a0: confirmez votre nouvelle adresse e-mail / Confirm your new e-mail address',
    );
  });

  it('says the link lifetime with the right singular or plural in each language', () => {
    expect(hoursText(3600)).toEqual({ fr: '1 heure', en: '1 hour' });
    expect(hoursText(5400)).toEqual({ fr: '1,5 heure', en: '1.5 hours' });
    expect(hoursText(86_400)).toEqual({ fr: '24 heures', en: '24 hours' });
  });

  it('gives the French text first, then the English one, each with the link', () => {
    const text = emailChangeText('pat', 'https://console.example.org/profile/confirm-email?token=abc', 3600);
    const fr = text.indexOf('Le lien expire dans 1 heure ');
    const en = text.indexOf('The link expires in 1 hour ');
    expect(fr).toBeGreaterThan(0);
    expect(en).toBeGreaterThan(fr);
    expect(text.split('https://console.example.org/profile/confirm-email?token=abc')).toHaveLength(3);
    expect(text).not.toMatch(/in 1 hours/);
  });
});

describe('the notices of an e-mail change', () => {
  it('to the address in effect: bilingual subject, French first, naming the new address in both languages', () => {
    expect(EMAIL_CHANGE_NOTICE_SUBJECT).toBe(
      'Quarantine Console\u00a0: changement d’adresse e-mail demandé / E-mail address change requested',
    );
    const text = emailChangeNoticeText('pat', 'new@example.net');
    const fr = text.indexOf('Quarantine Console de pat\u00a0: la nouvelle adresse serait new@example.net.');
    const en = text.indexOf('Quarantine Console account of pat: the new address would be new@example.net.');
    expect(text.startsWith('Un changement d’adresse e-mail a été demandé')).toBe(true);
    expect(fr).toBeGreaterThan(0);
    expect(en).toBeGreaterThan(fr);
    expect(text).toContain('changez votre mot de passe');
    expect(text).toContain('change your password');
  });

  it('to an address that already has an account: says nothing changed, carries no link', () => {
    expect(EMAIL_IN_USE_SUBJECT).toBe(
      'Quarantine Console\u00a0: demande d’utilisation de votre adresse e-mail / Request to use your e-mail address',
    );
    const text = emailInUseText('pat');
    const fr = text.indexOf('rien n’a été modifié');
    const en = text.indexOf('nothing was changed');
    expect(fr).toBeGreaterThan(0);
    expect(en).toBeGreaterThan(fr);
    expect(text).not.toMatch(/https?:|token/);
  });

  it('French typography: a no-break space before every French colon, none left ordinary', () => {
    const fr = [emailChangeNoticeText('pat', 'new@example.net'), emailInUseText('pat')].map(
      (t) => t.split('-----')[0]!,
    );
    for (const part of fr) expect(part).not.toMatch(/ [:;?!]/);
  });
});
