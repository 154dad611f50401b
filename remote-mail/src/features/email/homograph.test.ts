import { homographDomain, homographOfAddress, homographOfUrl } from './homograph';

const PAYPAL_CYRILLIC_A = 'p\u0430ypal.com'; // Cyrillic а (U+0430)

describe('homographDomain', () => {
  it('flags a label mixing Latin with Cyrillic or Greek, in either form, with both forms', () => {
    const expected = { reason: 'mixed_scripts', unicode: PAYPAL_CYRILLIC_A, ascii: 'xn--pypal-4ve.com' };
    expect(homographDomain(PAYPAL_CYRILLIC_A)).toEqual(expected);
    expect(homographDomain('xn--pypal-4ve.com')).toEqual(expected);
    expect(homographDomain('XN--PYPAL-4VE.COM.')).toEqual(expected);
    expect(homographDomain('\u03c1aypal.com')).toMatchObject({ reason: 'mixed_scripts', ascii: 'xn--aypal-2ce.com' });
    expect(homographDomain(`login.${PAYPAL_CYRILLIC_A}`)).toMatchObject({ unicode: `login.${PAYPAL_CYRILLIC_A}` });
  });

  it('flags a whole-Cyrillic label of Latin look-alikes under an ASCII top-level domain', () => {
    expect(homographDomain('\u0430\u0440\u0440\u04cf\u0435.com')).toEqual({
      reason: 'lookalike',
      unicode: '\u0430\u0440\u0440\u04cf\u0435.com',
      ascii: 'xn--80ak6aa92e.com',
    });
    // Under a Cyrillic top-level domain it is a Cyrillic name like any other.
    expect(homographDomain('\u0430\u0440\u0440\u04cf\u0435.\u0440\u0444')).toBeNull();
  });

  it.each([
    ['pure Latin', 'paypal.com'],
    ['a German IDN', 'bücher.de'],
    ['its A-label', 'xn--bcher-kva.de'],
    ['a bare label', 'münchen'],
    ['pure Cyrillic', 'пример.рф'],
    ['Cyrillic that does not pass for Latin', 'сайт.com'],
    ['pure Greek', 'ελλάδα.gr'],
    ['Japanese (Han + kana + Latin)', 'sonyの例え.jp'],
    ['Korean', '한국.kr'],
    ['a broken A-label', 'xn--zz.com'],
    ['nothing', ' '],
  ])('leaves %s alone (%s)', (_, domain) => {
    expect(homographDomain(domain)).toBeNull();
  });
});

describe('addresses and URLs', () => {
  it('reads the domain after the last @ of an address', () => {
    expect(homographOfAddress('Billing@xn--pypal-4ve.com')).toMatchObject({ unicode: PAYPAL_CYRILLIC_A });
    expect(homographOfAddress('"a@p\u0430ypal.com"@example.com')).toBeNull();
    expect(homographOfAddress('no-domain')).toBeNull();
    expect(homographOfAddress('')).toBeNull();
  });

  it('reads the host of a URL as a browser would, percent escapes included', () => {
    expect(homographOfUrl(`https://${PAYPAL_CYRILLIC_A}/login?next=/`)).toMatchObject({ ascii: 'xn--pypal-4ve.com' });
    expect(homographOfUrl('http://user@p%D0%B0ypal.com:8080/')).toMatchObject({ ascii: 'xn--pypal-4ve.com' });
    expect(homographOfUrl('https://paypal.com/p\u0430ypal')).toBeNull();
    expect(homographOfUrl('https://[2001:db8::1]/')).toBeNull();
    expect(homographOfUrl('not a url')).toBeNull();
  });
});
