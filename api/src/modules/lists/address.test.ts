import { normaliseListAddress, unicodeAddress } from './address';

test.each([
  ['jane@example.com', 'jane@example.com'],
  ['  Jane.Doe+news@Example.COM ', 'jane.doe+news@example.com'],
  ['@Example.com', '@example.com'],
  ['@bücher.example', '@xn--bcher-kva.example'],
  ['Hans@Bücher.Example', 'hans@xn--bcher-kva.example'],
  ['jörg@bücher.example', 'jörg@xn--bcher-kva.example'],
  ['@xn--bcher-kva.example', '@xn--bcher-kva.example'],
  [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
])('%j is stored as %j', (input, stored) => {
  expect(normaliseListAddress(input)).toBe(stored);
});

test.each([
  ['no at sign', 'example.com'],
  ['empty', ''],
  ['only @', '@'],
  ['no domain', 'jane@'],
  ['single-label domain', 'jane@localhost'],
  ['numeric TLD', 'jane@192.0.2.1'],
  ['a space', 'jane doe@example.com'],
  ['angle brackets', '<jane@example.com>'],
  ['a display name', 'Jane <jane@example.com>'],
  ['a quote', '"jane"@example.com'],
  ['a leading dot', '.jane@example.com'],
  ['two dots', 'ja..ne@example.com'],
  ['a wildcard', '*@example.com'],
  ['a path in the domain', 'jane@example.com/x'],
  ['a bad label', 'jane@-bad.example'],
  ['local part over 64 octets', `${'a'.repeat(65)}@example.com`],
  ['local part over 64 octets in UTF-8', `${'é'.repeat(33)}@example.com`],
  ['over 254 characters', `${'a'.repeat(60)}@${Array(4).fill('b'.repeat(60)).join('.')}.example`],
  ['a CR', 'jane\r@example.com'],
  ['a right-to-left override (U+202E)', 'ja\u202Ene@example.com'],
  ['a left-to-right mark (U+200E)', 'ja\u200Ene@example.com'],
  ['a zero-width space (U+200B)', 'ja\u200Bne@example.com'],
  ['a zero-width non-joiner (U+200C)', 'ja\u200Cne@example.com'],
  ['a zero-width joiner (U+200D)', 'ja\u200Dne@example.com'],
  ['a word joiner (U+2060)', 'ja\u2060ne@example.com'],
  ['a byte order mark inside (U+FEFF)', 'ja\uFEFFne@example.com'],
  ['a soft hyphen (U+00AD)', 'ja\u00ADne@example.com'],
  ['a C1 control (U+0085)', 'ja\u0085ne@example.com'],
  ['a C1 control (U+009F)', 'ja\u009Fne@example.com'],
  ['a C1 control (U+0080)', '\u0080jane@example.com'],
])('%s (%j) is refused', (_why, input) => {
  expect(normaliseListAddress(input)).toBeNull();
});

test('the Unicode form is given for an IDN only', () => {
  expect(unicodeAddress('hans@xn--bcher-kva.example')).toBe('hans@bücher.example');
  expect(unicodeAddress('@xn--bcher-kva.example')).toBe('@bücher.example');
  expect(unicodeAddress('jane@example.com')).toBeNull();
});
