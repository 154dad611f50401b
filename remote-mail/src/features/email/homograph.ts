import { domainToALabel } from '@qc/contracts';
import { toUnicode } from 'punycode.js';

/**
 * Homograph domains (issue 29 item 8): `pаypal.com` with a Cyrillic а reads as PayPal's. A domain is
 * flagged when one of its labels
 * - mixes letters of several scripts (`\p{Script=…}`), except the mixes Japanese, Chinese and Korean
 *   names are written in (Han with kana, Bopomofo or Hangul, and Latin), as browsers allow them;
 * - or, under an ASCII top-level domain, is written only with Cyrillic or Greek letters that look
 *   like Latin ones (`аррӏе.com`), the "whole-script" look-alike.
 * Either way both of its forms are given, so the page can show the A-label (`xn--…`, what the name
 * really is) beside the Unicode one. Legitimate IDNs (`bücher.de`, `münchen.de`, `пример.рф`) pass.
 * Pure: shared by the quarantine list and the e-mail detail.
 */

export interface Homograph {
  reason: 'mixed_scripts' | 'lookalike';
  /** The domain in Unicode, as it reads. */
  unicode: string;
  /** The IDNA A-label form (`xn--…`); null when the name does not convert. */
  ascii: string | null;
}

const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Han',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Hangul',
].map((name) => ({ name, re: new RegExp(`\\p{Script=${name}}`, 'u') }));

/** Script mixes of CJK names (Latin allowed with them, as in `sonyの.jp`). */
const CJK_MIXES = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** Cyrillic and Greek lower-case letters that read as Latin ones (after Chromium's IDN spoof checker). */
const LATIN_LOOKALIKES = /^[асԁеһіјӏорԗԛѕԝхуъьҽпгѵѡαικνορτυχ]+$/u;
const LETTER = /\p{L}/u;
const ASCII = /^[\x00-\x7f]*$/;

/** The scripts of a label's letters (digits, hyphens and marks belong to none). */
function scriptsOf(label: string): Set<string> {
  const scripts = new Set<string>();
  for (const c of label) {
    if (!LETTER.test(c)) continue;
    scripts.add(SCRIPTS.find((s) => s.re.test(c))?.name ?? 'Other');
  }
  return scripts;
}

function labelReason(label: string, asciiTld: boolean): Homograph['reason'] | null {
  if (ASCII.test(label)) return null;
  const scripts = scriptsOf(label);
  if (scripts.size > 1 && !CJK_MIXES.some((mix) => [...scripts].every((s) => mix.has(s)))) return 'mixed_scripts';
  const letters = [...label].filter((c) => LETTER.test(c)).join('');
  return asciiTld && LATIN_LOOKALIKES.test(letters) ? 'lookalike' : null;
}

/** A domain, in either form (U-label or `xn--` A-label), when it may imitate another; null otherwise. */
export function homographDomain(domain: string): Homograph | null {
  const written = domain.trim().replace(/\.$/, '');
  if (!written) return null;
  const ascii = domainToALabel(written);
  let unicode: string;
  try {
    unicode = toUnicode(ascii ?? written.toLowerCase());
  } catch {
    return null; // a broken xn-- label: no name to read
  }
  const labels = unicode.split('.');
  const asciiTld = ASCII.test(labels[labels.length - 1]!);
  for (const label of labels) {
    const reason = labelReason(label, asciiTld);
    if (reason) return { reason, unicode, ascii: ascii !== unicode ? ascii : null };
  }
  return null;
}

/** The domain of an address (after its last `@`). */
export function homographOfAddress(address: string): Homograph | null {
  const at = address.lastIndexOf('@');
  return at < 0 ? null : homographDomain(address.slice(at + 1).replace(/>$/, ''));
}

/** The host of a URL, as the browser would read it (percent escapes and IDNA mapping applied). */
export function homographOfUrl(url: string): Homograph | null {
  let host: string;
  try {
    host = new URL(url.trim()).hostname;
  } catch {
    return null; // no host a browser would go to
  }
  return host && !host.startsWith('[') ? homographDomain(host) : null;
}
