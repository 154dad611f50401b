import type { ListEntry } from '@qc/contracts';

/** RFC 5321's limits, as the api checks them (LIST_LIMITS of @qc/contracts, mirrored: no zod here). */
const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;

// A domain of at least two labels, IDN (Unicode) labels allowed: the api stores its A-label form.
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?`;
const DOMAIN = new RegExp(String.raw`^(?:${LABEL}\.)+${LABEL}$`, 'u');
// The dot-atom of RFC 5322 (no quoted local parts: nobody lists one), Unicode letters allowed.
const LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;

/**
 * Spec §5 on the client, before anything is sent: an e-mail address (`jane@example.com`) or a whole
 * domain (`@example.com`). The api checks again (and stores the IDNA form); this only spares a
 * round trip for what is plainly not an address.
 */
export function isListAddress(raw: string): boolean {
  const value = raw.trim();
  if (!value || value.length > MAX_ADDRESS || /\s/.test(value)) return false;
  const at = value.lastIndexOf('@');
  if (at < 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!DOMAIN.test(domain) || domain.length > 253) return false;
  if (at === 0) return true; // @domain: the whole domain
  return new TextEncoder().encode(local).length <= MAX_LOCAL && LOCAL.test(local);
}

/** How an entry reads: its Unicode form when an IDN, and whether it stands for a whole domain. */
export function shownAddress(entry: Pick<ListEntry, 'address' | 'address_unicode'>): {
  text: string;
  wholeDomain: boolean;
} {
  const text = entry.address_unicode ?? entry.address;
  return text.startsWith('@') ? { text: text.slice(1), wholeDomain: true } : { text, wholeDomain: false };
}
