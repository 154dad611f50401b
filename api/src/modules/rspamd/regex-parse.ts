/**
 * A parser for the regex dialect the console accepts: the part of PCRE that Hyperscan (Rspamd's
 * regex engine) and PCRE both run the same way, and that a JavaScript RegExp reads alike.
 * Anything outside it is refused with a message naming the construct (backreferences, lookaround,
 * possessive and atomic groups, conditionals, inline flags, Unicode properties…), so a rule never
 * reaches Rspamd in a form it would refuse or read differently.
 *
 * The tree it builds is what regex-safety.ts analyses: character positions with the set of code
 * points each can match, sequences, alternations and repeats; anchors and \b are zero-width.
 */

/** A set of code points: sorted, disjoint, non-adjacent inclusive ranges [lo, hi, lo, hi, …]. */
export type CharSet = number[];

export type RegexNode =
  | { t: 'char'; set: CharSet }
  | { t: 'empty' }
  | { t: 'seq'; items: RegexNode[] }
  | { t: 'alt'; alts: RegexNode[] }
  | { t: 'rep'; body: RegexNode; min: number; max: number };

export class RegexSyntaxError extends Error {}

const MAX_CODE_POINT = 0x10ffff;
/** Bounded repeats above this are refused: Hyperscan unrolls them (memory, compile time). */
export const REPEAT_MAX = 1000;
const DEPTH_MAX = 50;

// --- character sets ---

function normalise(pairs: [number, number][]): CharSet {
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

const pairsOf = (set: CharSet): [number, number][] => {
  const pairs: [number, number][] = [];
  for (let i = 0; i < set.length; i += 2) pairs.push([set[i]!, set[i + 1]!]);
  return pairs;
};

export const setOf = (...ranges: [number, number][]): CharSet => normalise(ranges);
export const union = (...sets: CharSet[]): CharSet => normalise(sets.flatMap(pairsOf));

export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of pairsOf(set)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return normalise(out);
}

export function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

const single = (c: number): CharSet => [c, c];
const ch = (s: string) => s.codePointAt(0)!;
const DIGIT = setOf([ch('0'), ch('9')]);
// Under PCRE's UCP (Rspamd's UTF-8 mode) \w and \s also match non-ASCII characters: the sets
// over-approximate them (for the ambiguity check a larger set is the cautious side).
const WORD = setOf(
  [ch('0'), ch('9')],
  [ch('A'), ch('Z')],
  [ch('_'), ch('_')],
  [ch('a'), ch('z')],
  [0x80, MAX_CODE_POINT],
);
const SPACE = setOf(
  [9, 13],
  [32, 32],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
);
const ANY = setOf([0, MAX_CODE_POINT]);

/**
 * The set with its other-case letters added (flag i). ASCII ranges are folded exactly; a
 * non-ASCII range only when it is small (a wide one is left as is: documented limit).
 */
function caseFold(set: CharSet): CharSet {
  const extra: [number, number][] = [];
  for (const [lo, hi] of pairsOf(set)) {
    const a = Math.max(lo, ch('a'));
    const z = Math.min(hi, ch('z'));
    if (a <= z) extra.push([a - 32, z - 32]);
    const A = Math.max(lo, ch('A'));
    const Z = Math.min(hi, ch('Z'));
    if (A <= Z) extra.push([A + 32, Z + 32]);
    if (hi >= 0x80 && hi - Math.max(lo, 0x80) < 512) {
      for (let c = Math.max(lo, 0x80); c <= hi; c++) {
        for (const other of [String.fromCodePoint(c).toLowerCase(), String.fromCodePoint(c).toUpperCase()]) {
          if ([...other].length === 1) extra.push([ch(other), ch(other)]);
        }
      }
    }
  }
  return extra.length ? union(set, normalise(extra)) : set;
}

// --- parser ---

const HEX2 = /^[0-9a-fA-F]{2}$/;
const isAsciiLetterOrDigit = (c: string) => /^[A-Za-z0-9]$/.test(c);

/** Escapes refused with a message saying why (outside and inside classes). */
function refusedEscape(c: string, next: string | undefined): string {
  if (/[1-9]/.test(c)) return `Backreferences (\\${c}) are not supported by Rspamd's regex engine`;
  if (c === 'k' || c === 'g') return `Backreferences (\\${c}…) are not supported by Rspamd's regex engine`;
  if (c === '0') return 'Octal escapes (\\0) are not supported: write \\x00';
  if ('AzZG'.includes(c)) return `The anchor \\${c} is not supported: use ^ and $`;
  if (c === 'p' || c === 'P') return `Unicode properties (\\${c}{…}) are not supported`;
  if (c === 'Q' || c === 'E') return '\\Q…\\E is not supported: escape each character instead';
  if (c === 'K') return '\\K (reset match start) is not supported';
  if (c === 'c') return 'Control escapes (\\cX) are not supported: write \\xHH';
  if (c === 'u') return '\\u escapes are not supported: write the character itself or \\xHH';
  if (c === 'x')
    return next === '{'
      ? '\\x{…} is not supported: write \\xHH or the character itself'
      : '\\x needs two hex digits (\\x41)';
  return `The escape \\${c} is not supported`;
}

export interface ParseFlags {
  ignoreCase: boolean;
}

/** Parses `source` (without delimiters or flags); throws RegexSyntaxError with a specific message. */
export function parseRegex(source: string, flags: ParseFlags): RegexNode {
  const s = [...source];
  let i = 0;
  let depth = 0;
  const fail = (message: string): never => {
    throw new RegexSyntaxError(message);
  };
  const literal = (c: number): RegexNode => ({ t: 'char', set: flags.ignoreCase ? caseFold(single(c)) : single(c) });

  function hexEscape(): number {
    // at s[i] === 'x'
    const hex = s.slice(i + 1, i + 3).join('');
    if (!HEX2.test(hex)) fail(refusedEscape('x', s[i + 1]));
    i += 3;
    return parseInt(hex, 16);
  }

  /** After a `\` outside a class: a node (i is moved past the escape). */
  function escape(): RegexNode {
    const c = s[i];
    if (c === undefined) return fail('The regex ends with a lone \\');
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S': {
        i++;
        return { t: 'char', set: classEscape(c) };
      }
      case 'b':
      case 'B':
        i++;
        return { t: 'empty' };
      case 'x':
        return literal(hexEscape());
    }
    const control = { t: 9, n: 10, r: 13, f: 12 }[c];
    if (control !== undefined) {
      i++;
      return literal(control);
    }
    if (isAsciiLetterOrDigit(c)) return fail(refusedEscape(c, s[i + 1]));
    if (c.codePointAt(0)! > 0x7f) return fail(`The escape \\${c} is not supported: write the character itself`);
    i++;
    return literal(ch(c));
  }

  function classEscape(c: string): CharSet {
    const base = c.toLowerCase() === 'd' ? DIGIT : c.toLowerCase() === 'w' ? WORD : SPACE;
    return c === c.toUpperCase() ? complement(base) : base;
  }

  /** One member of a bracket class: a code point, or a set for \d \w \s and their negations. */
  function classAtom(): number | CharSet {
    const c = s[i]!;
    if (c === '[') {
      if (s[i + 1] === ':' || s[i + 1] === '.' || s[i + 1] === '=')
        fail('POSIX classes like [:alpha:] are not supported');
      fail('Escape a [ inside a class as \\[');
    }
    if (c !== '\\') {
      i++;
      return ch(c);
    }
    i++;
    const e = s[i];
    if (e === undefined) return fail('The regex ends with a lone \\');
    if ('dDwWsS'.includes(e)) {
      i++;
      return classEscape(e);
    }
    if (e === 'x') return hexEscape();
    if (e === 'b') return fail('\\b inside a class is not supported: write \\x08');
    const control = { t: 9, n: 10, r: 13, f: 12 }[e];
    if (control !== undefined) {
      i++;
      return control;
    }
    if (isAsciiLetterOrDigit(e)) return fail(refusedEscape(e, s[i + 1]));
    if (e.codePointAt(0)! > 0x7f) return fail(`The escape \\${e} is not supported: write the character itself`);
    i++;
    return ch(e);
  }

  function bracketClass(): RegexNode {
    i++; // [
    const negated = s[i] === '^';
    if (negated) i++;
    if (s[i] === ']') fail('An empty class or a leading ] is not supported: escape it as \\]');
    const parts: CharSet[] = [];
    for (;;) {
      if (i >= s.length) fail('Missing ] to close the class');
      if (s[i] === ']') break;
      const lo = classAtom();
      if (s[i] === '-' && s[i + 1] !== ']' && s[i + 1] !== undefined) {
        i++;
        const hi = classAtom();
        if (typeof lo !== 'number' || typeof hi !== 'number') {
          fail('A range cannot start or end with a class like \\d: escape the - as \\-');
        }
        if ((lo as number) > (hi as number)) {
          fail(`The range ${String.fromCodePoint(lo as number)}-${String.fromCodePoint(hi as number)} is out of order`);
        }
        parts.push(setOf([lo as number, hi as number]));
      } else {
        parts.push(typeof lo === 'number' ? single(lo) : lo);
      }
    }
    i++; // ]
    let set = union(...parts);
    if (flags.ignoreCase) set = caseFold(set);
    return { t: 'char', set: negated ? complement(set) : set };
  }

  function group(): RegexNode {
    i++; // (
    if (s[i] === '*') fail('Backtracking verbs like (*SKIP) are not supported');
    if (s[i] === '?') {
      const rest = s.slice(i + 1, i + 4).join('');
      if (rest.startsWith(':')) i += 2;
      else if (rest.startsWith('=')) fail("Lookahead (?=…) is not supported by Rspamd's regex engine");
      else if (rest.startsWith('!')) fail("Negative lookahead (?!…) is not supported by Rspamd's regex engine");
      else if (rest.startsWith('<=')) fail("Lookbehind (?<=…) is not supported by Rspamd's regex engine");
      else if (rest.startsWith('<!')) fail("Negative lookbehind (?<!…) is not supported by Rspamd's regex engine");
      else if (rest.startsWith('>')) fail('Atomic groups (?>…) are not supported');
      else if (rest.startsWith('(')) fail('Conditionals (?(…)…) are not supported');
      else if (rest.startsWith('#')) fail('Comments (?#…) are not supported');
      else if (rest.startsWith('|')) fail('Branch reset groups (?|…) are not supported');
      else if (/^(<|P<|')/.test(rest)) fail('Named groups are not supported: use (?:…)');
      else if (/^(R|\d|&|P=|P>|[+-]\d)/.test(rest)) fail('Recursion and subroutine calls are not supported');
      else if (/^[a-zA-Z-]/.test(rest))
        fail('Inline flags like (?i) are not supported: put the flags after the closing / (/…/i)');
      else fail('(? must be followed by : for a group (?:…)');
    }
    if (++depth > DEPTH_MAX) fail(`Groups are nested too deeply (at most ${DEPTH_MAX})`);
    const body = alternation();
    if (s[i] !== ')') fail('Missing ) to close the group');
    i++;
    depth--;
    return body;
  }

  function atom(): RegexNode {
    const c = s[i]!;
    switch (c) {
      case '(':
        return group();
      case '[':
        return bracketClass();
      case '.':
        i++;
        return { t: 'char', set: ANY };
      case '^':
      case '$':
        i++;
        return { t: 'empty' };
      case '\\':
        i++;
        return escape();
      case '*':
      case '+':
      case '?':
        return fail(`Nothing to repeat before ${c}`);
      case '{':
        return fail(readCount() ? 'Nothing to repeat before {' : 'Escape a literal { as \\{');
      case '}':
        return fail('Escape a literal } as \\}');
      case ']':
        return fail('Escape a literal ] as \\]');
    }
    i++;
    return literal(ch(c));
  }

  /** `{n}`, `{n,}` or `{n,m}` at s[i] (not consumed), or null when it is not one. */
  function readCount(): { min: number; max: number; length: number } | null {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i, i + 24).join(''));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    return { min, max, length: m[0].length };
  }

  function quantified(node: RegexNode, zeroWidth: boolean): RegexNode {
    let min: number;
    let max: number;
    const c = s[i];
    if (c === '*' || c === '+' || c === '?') {
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Infinity;
      i++;
    } else if (c === '{') {
      const count = readCount();
      if (!count) return fail('Escape a literal { as \\{');
      ({ min, max } = count);
      if (min > max) fail(`The repeat {${min},${max}} is out of order`);
      if (Math.max(min, max === Infinity ? 0 : max) > REPEAT_MAX) fail(`A repeat count is at most ${REPEAT_MAX}`);
      i += count.length;
    } else {
      return node;
    }
    if (zeroWidth) fail('Nothing to repeat: an anchor cannot be repeated');
    if (s[i] === '+') fail('Possessive quantifiers (a++) are not supported');
    if (s[i] === '?') i++; // lazy: same language, same analysis
    if (s[i] === '*' || s[i] === '+' || s[i] === '?' || (s[i] === '{' && readCount())) {
      fail('Nothing to repeat: a quantifier cannot follow another');
    }
    return { t: 'rep', body: node, min, max };
  }

  function sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (i < s.length && s[i] !== '|' && s[i] !== ')') {
      const start = s[i];
      const node = atom();
      const zeroWidth = node.t === 'empty' && (start === '^' || start === '$' || start === '\\');
      items.push(quantified(node, zeroWidth));
    }
    return items.length === 1 ? items[0]! : { t: 'seq', items };
  }

  function alternation(): RegexNode {
    const alts = [sequence()];
    while (s[i] === '|') {
      i++;
      alts.push(sequence());
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', alts };
  }

  const tree = alternation();
  if (i < s.length) fail('Unmatched ) in the regex');
  return tree;
}
