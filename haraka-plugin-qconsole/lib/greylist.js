'use strict';
// Greylisting of the mail a console rule greylisted (system rules with action greylist): the first
// attempt of a (client network, sender, recipients) triplet is deferred, and the same triplet is let
// through once it retries at least `window` seconds later. In memory, bounded: an entry lives
// `lifetime` seconds after it was last seen (a sender that never retries starts over), at most
// `maxEntries` entries (the least recently seen go first). With Haraka `nodes > 1` each worker keeps
// its own: a retry that lands on another worker waits one window more there.

const crypto = require('node:crypto');
const net = require('node:net');

/** The client's network: its /24 (IPv4) or /64 (IPv6), as senders retry from a pool of addresses. */
function clientNetwork(ip) {
  const addr = String(ip ?? '').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  if (net.isIPv4(addr)) return `${addr.split('.').slice(0, 3).join('.')}.0/24`;
  if (!net.isIPv6(addr)) return addr || '-';
  const [head, tail = ''] = addr.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = addr.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

function tripletKey({ ip, sender, recipients }) {
  const rcpts = [...new Set((recipients ?? []).map((r) => String(r).toLowerCase()))].sort();
  // A fixed-size key: a message to thousands of recipients must not make an entry of megabytes.
  const text = JSON.stringify([clientNetwork(ip), String(sender ?? '').toLowerCase(), rcpts]);
  return crypto.createHash('sha256').update(text).digest('base64url');
}

class Greylist {
  /** @param {{windowMs: number, lifetimeMs: number, maxEntries: number, now?: () => number}} opts */
  constructor({ windowMs, lifetimeMs, maxEntries, now = Date.now }) {
    this.windowMs = windowMs;
    this.lifetimeMs = lifetimeMs;
    this.maxEntries = maxEntries;
    this.now = now;
    this.entries = new Map(); // key → {first, last}; Map order = least recently seen first
  }

  configure({ windowMs, lifetimeMs, maxEntries }) {
    Object.assign(this, { windowMs, lifetimeMs, maxEntries });
  }

  /**
   * One attempt of a greylisted message.
   * @returns {{pass: boolean, waitMs: number}} pass: the triplet came back after the window
   */
  check(triplet) {
    const now = this.now();
    this.sweep(now);
    const key = tripletKey(triplet);
    let entry = this.entries.get(key);
    if (entry && now - entry.last > this.lifetimeMs) entry = undefined;
    if (!entry) entry = { first: now, last: now };
    this.entries.delete(key);
    entry.last = now;
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value);
    const waited = now - entry.first;
    return { pass: waited >= this.windowMs, waitMs: Math.max(0, this.windowMs - waited) };
  }

  /** Drops the entries not seen for `lifetime` (they are at the front). */
  sweep(now = this.now()) {
    for (const [key, entry] of this.entries) {
      if (now - entry.last <= this.lifetimeMs) break;
      this.entries.delete(key);
    }
  }

  get size() {
    return this.entries.size;
  }
}

module.exports = { Greylist, clientNetwork, tripletKey };
