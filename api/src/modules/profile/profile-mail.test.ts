import { EMAIL_CHANGE_SUBJECT, emailChangeText, hoursText } from './profile.service';

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
