import { controlCharRuns, escapeControlChars, unescapeControlChars } from './control-chars';

test('every C0 and C1 control, DEL, the line separators and the bidi controls are escaped; the rest is not', () => {
  expect(escapeControlChars('ok\r\n2026 [NOTICE] admin login ok')).toBe('ok\\r\\n2026 [NOTICE] admin login ok');
  expect(escapeControlChars('\x1b[31mred\x1b[0m\ttab')).toBe('\\x1b[31mred\\x1b[0m\\ttab');
  expect(escapeControlChars('\0\x07\x7f\x85\x9f')).toBe('\\x00\\x07\\x7f\\x85\\x9f');
  expect(escapeControlChars('gnp\u202e.exe \u2066x\u2069 \u200e \u2028\u2029')).toBe(
    'gnp\\u202e.exe \\u2066x\\u2069 \\u200e \\u2028\\u2029',
  );
  // Printable text, accents, other scripts, emoji and a literal backslash stay as they are.
  const plain = 'Félicitations ünïcödé пример 例 🙂 C:\\new \xa0';
  expect(escapeControlChars(plain)).toBe(plain);
  for (let code = 0; code <= 0x9f; code++) {
    const escaped = escapeControlChars(String.fromCharCode(code));
    const control = code < 0x20 || code >= 0x7f;
    expect([code, escaped.startsWith('\\') && escaped.length > 1]).toEqual([code, control]);
  }
});

test('controlCharRuns: plain runs as they are, each control character a run of its own, escaped', () => {
  expect(controlCharRuns('a\r\nb\x1b[0m')).toEqual([
    { text: 'a', control: false },
    { text: '\\r', control: true },
    { text: '\\n', control: true },
    { text: 'b', control: false },
    { text: '\\x1b', control: true },
    { text: '[0m', control: false },
  ]);
  expect(controlCharRuns('')).toEqual([]);
  expect(controlCharRuns('plain')).toEqual([{ text: 'plain', control: false }]);
});

test('unescapeControlChars reverses the escapes of control characters only', () => {
  const raw = 'x\r\n\t\x1b\x85\u202e\u2028y';
  expect(unescapeControlChars(escapeControlChars(raw))).toBe(raw);
  expect(unescapeControlChars('\\x1B[31m')).toBe('\x1b[31m');
  // Not a control character, not an escape, or NUL (never stored): left as typed.
  expect(unescapeControlChars('\\x41 \\u00e9 \\q \\x0 \\x00 C:\\\\')).toBe('\\x41 \\u00e9 \\q \\x0 \\x00 C:\\\\');
});
