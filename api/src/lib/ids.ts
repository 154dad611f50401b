import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Opaque, URL-safe, time-ordered id (ULID layout: 10 chars of ms time + 16 random chars, 80 bits).
 * Time order keeps B-tree inserts local; the random part makes ids unguessable.
 */
export function newId(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (const b of bytes) rand += CROCKFORD[b & 31];
  return time + rand;
}

/**
 * newId, but increasing within one millisecond too: the same-millisecond ids of one process follow
 * their calls' order (the random part of the previous one plus one). Haraka logs several lines per
 * millisecond; sorted by (ts, id) they must keep the order they were logged in.
 */
export function monotonicIds(): (now?: number) => string {
  let lastTime = -1;
  let last: number[] = [];
  return (now = Date.now()) => {
    const id = newId(now);
    if (now !== lastTime) {
      lastTime = now;
      last = [...id.slice(10)].map((c) => CROCKFORD.indexOf(c));
      return id;
    }
    // Add one to the 16-digit base-32 tail (its top digit is random: overflow is not a concern).
    for (let i = last.length - 1; i >= 0; i--) {
      last[i] = (last[i]! + 1) % 32;
      if (last[i] !== 0) break;
    }
    return id.slice(0, 10) + last.map((d) => CROCKFORD[d]).join('');
  };
}

/** Whether `id` has newId's shape: anything else names nothing that could exist. */
export function isId(id: string): boolean {
  return /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id);
}

/** The time (ms) a newId was made at. */
export function idTime(id: string): number {
  let t = 0;
  for (const c of id.slice(0, 10)) t = t * 32 + CROCKFORD.indexOf(c);
  return t;
}
