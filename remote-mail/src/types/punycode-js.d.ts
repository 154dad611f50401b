// punycode.js (Mathias Bynens; the Punycode converter mailparser and smtp-server use) ships no types.
declare module 'punycode.js' {
  /** A domain with its `xn--` labels decoded to Unicode; other labels unchanged. Throws RangeError on bad input. */
  export function toUnicode(domain: string): string;
}
