import { isListAddress, shownAddress } from './address';

describe('isListAddress (spec §5: an e-mail or @domain)', () => {
  it.each([
    'jane@example.com',
    'Jane.Doe+tag@Sub.Example.COM',
    '@example.com',
    '@bücher.example',
    'josé@exämple.fr',
    ' jane@example.com ',
  ])('accepts %s', (v) => expect(isListAddress(v)).toBe(true));

  it.each([
    '',
    'jane',
    'example.com',
    '@',
    'jane@',
    '@localhost',
    'jane@example',
    'ja ne@example.com',
    'jane@@example.com',
    '.jane@example.com',
    'ja..ne@example.com',
    'jane@-example.com',
    `${'a'.repeat(65)}@example.com`,
    `jane@${'a'.repeat(250)}.com`,
  ])('refuses %j', (v) => expect(isListAddress(v)).toBe(false));
});

describe('shownAddress', () => {
  it('shows the Unicode form of an IDN and a whole domain without its @', () => {
    expect(shownAddress({ address: '@xn--bcher-kva.example', address_unicode: '@bücher.example' })).toEqual({
      text: 'bücher.example',
      wholeDomain: true,
    });
    expect(shownAddress({ address: 'jane@example.com', address_unicode: null })).toEqual({
      text: 'jane@example.com',
      wholeDomain: false,
    });
  });
});
