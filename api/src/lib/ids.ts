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
