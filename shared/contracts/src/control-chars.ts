/**
 * Characters a text shown as one line must not carry invisibly (issue 29 item 4): the C0 controls,
 * DEL and the C1 controls (`\p{Cc}`), the line and paragraph separators, and the bidirectional
 * controls (`\p{Bidi_Control}`: U+202E and its kin reorder what follows on screen). A Haraka log
 * line keeps them as received; pages show them escaped, and a search may type that escaped form.
 */
const CONTROL = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;
const CONTROLS = new RegExp(CONTROL.source, 'gu');

const SHORT: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const FROM_SHORT: Record<string, string> = { t: '\t', n: '\n', r: '\r' };

/** One control character as shown: `\r`, `\n`, `\t`, `\xHH` up to U+00FF, `\uHHHH` above. */
export function escapeControlChar(c: string): string {
  const code = c.codePointAt(0)!;
  return SHORT[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
}

/** A text in runs: plain text as it is, and each control character escaped (`control: true`). */
export function controlCharRuns(text: string): { text: string; control: boolean }[] {
  const runs: { text: string; control: boolean }[] = [];
  let start = 0;
  for (const m of text.matchAll(CONTROLS)) {
    if (m.index > start) runs.push({ text: text.slice(start, m.index), control: false });
    runs.push({ text: escapeControlChar(m[0]), control: true });
    start = m.index + m[0].length;
  }
  if (start < text.length) runs.push({ text: text.slice(start), control: false });
  return runs;
}

/** The text with every control character escaped (`a\r\nb` → `a\\r\\nb`). */
export function escapeControlChars(text: string): string {
  return text.replace(CONTROLS, escapeControlChar);
}

/**
 * The inverse for a search typed as the page shows a line: each escape that stands for one of
 * these characters becomes it (`\x41` is no control character and stays as typed). Never NUL: no
 * stored text holds it (PostgreSQL's text cannot).
 */
export function unescapeControlChars(text: string): string {
  return text.replace(/\\(?:([nrt])|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4}))/g, (escape, short, hex2, hex4) => {
    const c = short ? FROM_SHORT[short as string]! : String.fromCharCode(parseInt((hex2 ?? hex4) as string, 16));
    return c !== '\0' && CONTROL.test(c) ? c : escape;
  });
}
