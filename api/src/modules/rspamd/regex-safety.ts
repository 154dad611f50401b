import { RSPAMD_LIMITS } from '@qc/contracts';
import { intersects, parseRegex, RegexSyntaxError, type CharSet, type RegexNode } from './regex-parse';
import { PatternError } from './pattern-error';

/**
 * Whether a regex can backtrack catastrophically, decided on its parsed form (no dependency).
 *
 * Method: the regex's Glushkov automaton (one state per character position) kept as a MULTIGRAPH:
 * `(a+)+` gets two a→a edges, one per loop, which is exactly what a backtracking engine tries in
 * turn. A regex has exponential backtracking (EDA, Weideman et al. 2016) when some state q has two
 * different paths from q back to q reading the same text. In the product of the automaton with
 * itself, that is a cycle through a diagonal pair (q, q) that takes one divergent step (two
 * different edges). We look for a strongly connected component of the product holding a diagonal
 * pair and a divergent edge. It finds `(a+)+`, `(a*)*`, `(a|a)*`, `(a|aa)+`, `(\w+\s?)+`, `(a*b*)*`
 * and accepts `([a-z0-9-]+\.)+example\.com` (the dot ends each round: one way only).
 *
 * Limits, on purpose (cautious: refuse rather than let through):
 * - A bounded repeat is analysed like an unbounded one: `(.*a){20}` (polynomial of degree 20) is
 *   refused as `(.*a)+`, but so is a harmless `(a|ab){2}`.
 * - Anchors and \b are ignored (they only narrow what matches), `.` matches everything, and case
 *   folding of wide non-ASCII ranges is not computed: more overlap seen than exists, never less,
 *   except for those wide non-ASCII ranges under /i.
 * - Polynomial backtracking from a chain of overlapping loops in sequence (`.*a.*a.*a`, `\s*\s*$`)
 *   is NOT refused: its cost grows with a power of the text length, not exponentially, and PCRE's
 *   match limits bound it; Hyperscan, Rspamd's first choice, does not backtrack at all.
 * - A regex whose product automaton is too large to explore is refused as too complex.
 */
const PRODUCT_WORK_MAX = 2_000_000;

interface Glushkov {
  positions: CharSet[];
  /** Edges [from, to], duplicates kept (one per way the regex can move from one position to the next). */
  edges: [number, number][];
}

function glushkov(tree: RegexNode): Glushkov {
  const positions: CharSet[] = [];
  const edges: [number, number][] = [];
  const link = (from: number[], to: number[]) => {
    for (const a of from) for (const b of to) edges.push([a, b]);
  };
  type Part = { nullable: boolean; first: number[]; last: number[] };
  const walk = (node: RegexNode): Part => {
    switch (node.t) {
      case 'char': {
        positions.push(node.set);
        const p = positions.length - 1;
        return { nullable: false, first: [p], last: [p] };
      }
      case 'empty':
        return { nullable: true, first: [], last: [] };
      case 'alt': {
        const parts = node.alts.map(walk);
        return {
          nullable: parts.some((p) => p.nullable),
          first: parts.flatMap((p) => p.first),
          last: parts.flatMap((p) => p.last),
        };
      }
      case 'seq': {
        let acc: Part = { nullable: true, first: [], last: [] };
        for (const item of node.items) {
          const next = walk(item);
          link(acc.last, next.first);
          acc = {
            nullable: acc.nullable && next.nullable,
            first: acc.nullable ? [...acc.first, ...next.first] : acc.first,
            last: next.nullable ? [...acc.last, ...next.last] : next.last,
          };
        }
        return acc;
      }
      case 'rep': {
        const body = walk(node.body);
        if (node.max >= 2) link(body.last, body.first); // bounded or not: a loop (see the limits above)
        return { ...body, nullable: body.nullable || node.min === 0 };
      }
    }
  };
  walk(tree);
  return { positions, edges };
}

/** Tarjan's strongly connected components (iterative): node → component number. */
function stronglyConnected(graph: Map<number, { to: number }[]>): Map<number, number> {
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const component = new Map<number, number>();
  const onStack = new Set<number>();
  const sccStack: number[] = [];
  let counter = 0;
  let components = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const frames: { node: number; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    sccStack.push(root);
    onStack.add(root);
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const list = graph.get(frame.node) ?? [];
      if (frame.next < list.length) {
        const { to } = list[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          sccStack.push(to);
          onStack.add(to);
          frames.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      frames.pop();
      if (frames.length) {
        const parent = frames[frames.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        let member: number;
        do {
          member = sccStack.pop()!;
          onStack.delete(member);
          component.set(member, components);
        } while (member !== frame.node);
        components++;
      }
    }
  }
  return component;
}

/** 'exponential' when some part can match the same text in several ways, over and over; 'too_complex' when not decided. */
export function backtrackingRisk(tree: RegexNode): 'none' | 'exponential' | 'too_complex' {
  const { positions, edges } = glushkov(tree);
  const n = positions.length;
  const out: { to: number; id: number }[][] = Array.from({ length: n }, () => []);
  edges.forEach(([from, to], id) => out[from]!.push({ to, id }));
  const hasEdge = new Set(edges.map(([from, to]) => from * n + to));
  const overlap = new Uint8Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = a; b < n; b++)
      overlap[a * n + b] = overlap[b * n + a] = intersects(positions[a]!, positions[b]!) ? 1 : 0;
  }
  // A cycle of the product is made of two cycles of the automaton through the same state: only
  // pairs of one loop component of the automaton (and edges inside it) can be on one.
  const loops = stronglyConnected(new Map(out.map((list, p) => [p, list])));
  const looping = new Set(edges.filter(([a, b]) => loops.get(a) === loops.get(b)).map(([a]) => loops.get(a)!));
  const inLoop = (a: number, b: number) => looping.has(loops.get(a)!) && loops.get(a) === loops.get(b);

  // The product graph reachable from the diagonal pairs: node a*n+b, edges with a divergence flag.
  const succ = new Map<number, { to: number; divergent: boolean }[]>();
  const stack: number[] = [];
  for (let q = 0; q < n; q++) {
    if (!inLoop(q, q)) continue;
    succ.set(q * n + q, []);
    stack.push(q * n + q);
  }
  let work = 0;
  while (stack.length) {
    const node = stack.pop()!;
    const a = Math.floor(node / n);
    const b = node % n;
    const list = succ.get(node)!;
    for (const ea of out[a]!) {
      for (const eb of out[b]!) {
        if (++work > PRODUCT_WORK_MAX) return 'too_complex';
        if (!inLoop(ea.to, a) || !inLoop(eb.to, a) || !overlap[ea.to * n + eb.to]) continue;
        const to = ea.to * n + eb.to;
        const divergent = ea.id !== eb.id;
        // Shortcut for the common shapes: from (q, q), two ways to (x, y) and straight back to (q, q).
        if (divergent && a === b && (to === node || (hasEdge.has(ea.to * n + a) && hasEdge.has(eb.to * n + a)))) {
          return 'exponential';
        }
        list.push({ to, divergent });
        if (!succ.has(to)) {
          succ.set(to, []);
          stack.push(to);
        }
      }
    }
  }

  const component = stronglyConnected(succ);
  const withDiagonal = new Set<number>();
  for (let q = 0; q < n; q++) if (succ.has(q * n + q)) withDiagonal.add(component.get(q * n + q)!);
  for (const [from, list] of succ) {
    const c = component.get(from)!;
    if (!withDiagonal.has(c)) continue;
    if (list.some((e) => e.divergent && component.get(e.to) === c)) return 'exponential';
  }
  return 'none';
}

const FLAGS = 'imsu';

/**
 * A regex as the console stores it: `/source/flags` (flags ⊆ imsu, each once, in that order).
 * Written as `/source/flags`, or as a bare source, which is stored case-insensitive (`/source/i`).
 * Throws PatternError with a message for the user.
 */
export function normaliseRegex(raw: string): string {
  const input = raw.trim();
  let source = input;
  let flags = 'i';
  if (input.startsWith('/')) {
    const end = input.lastIndexOf('/');
    if (end === 0) throw new PatternError('A regex written with slashes ends with / and its flags: /source/flags');
    source = input.slice(1, end);
    flags = input.slice(end + 1);
    for (const f of flags) {
      if (!FLAGS.includes(f)) throw new PatternError(`Unknown regex flag "${f}": only i, m, s and u are allowed`);
    }
    if (new Set(flags).size !== flags.length) throw new PatternError('A regex flag is given twice');
    flags = [...FLAGS].filter((f) => flags.includes(f)).join('');
  }
  if (!source) throw new PatternError('The regex is empty');
  if ([...source].length > RSPAMD_LIMITS.regex) {
    throw new PatternError(`A regex is at most ${RSPAMD_LIMITS.regex} characters`);
  }
  if (/[\x00-\x1f\x7f]/.test(source)) throw new PatternError('Control characters are not allowed: write them as \\xHH');
  let tree: RegexNode;
  try {
    tree = parseRegex(source, { ignoreCase: flags.includes('i') });
  } catch (err) {
    if (err instanceof RegexSyntaxError) throw new PatternError(err.message);
    throw err;
  }
  try {
    // Belt and braces: what the parser accepted must also compile here (without u, whose escape rules are stricter).
    new RegExp(source, flags.replace('u', ''));
  } catch (err) {
    throw new PatternError(`The regex does not compile: ${(err as Error).message}`);
  }
  const risk = backtrackingRisk(tree);
  if (risk === 'exponential') {
    throw new PatternError(
      'This regex can backtrack catastrophically: a repeated part can match the same text in more than one way ' +
        '(like (a+)+, (a|aa)* or (.*a){20}). Rewrite it so that each text has one way to match.',
    );
  }
  if (risk === 'too_complex')
    throw new PatternError('This regex is too complex to check for catastrophic backtracking: simplify it');
  return `/${source}/${flags}`;
}

/** Whether a stored value is in the regex form (`/source/flags`). */
export const isStoredRegex = (value: string) => /^\/.+\/[imsu]*$/s.test(value);
