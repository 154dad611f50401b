import { revealBidi } from './bidi';

describe('revealBidi', () => {
  it('shows a right-to-left override as a visible marker, so "Facture \u202Efdp.exe" cannot pass for a PDF', () => {
    expect(revealBidi('Facture \u202Efdp.exe')).toBe('Facture [U+202E]fdp.exe');
  });

  it('marks zero-width and isolate controls and leaves ordinary text alone', () => {
    expect(revealBidi('a\u200Bb\u2066c\uFEFF')).toBe('a[U+200B]b[U+2066]c[U+FEFF]');
    expect(revealBidi('Réunion à 10 h — ok')).toBe('Réunion à 10 h — ok');
  });
});
