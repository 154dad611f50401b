import { z } from 'zod';

/**
 * One form for every address and domain the console stores or compares (issue 21 item 5): the
 * domain as IDNA A-label, lower case (`Ann@Bücher.Example` → `ann@xn--bcher-kva.example`). A user
 * typing the U-label form, Haraka handing over `rcpt_to` as the sender wrote it, and a domain
 * admin's domain (stored as A-label) then meet as equal strings.
 */

/** RFC 5321 §4.5.3.1.1: the local part of an address is at most 64 octets. */
export const LOCAL_PART_MAX_OCTETS = 64;
export const LOCAL_PART_TOO_LONG = `The part before @ is at most ${LOCAL_PART_MAX_OCTETS} bytes`;

const ASCII = /^[\x00-\x7f]*$/;
// Characters the URL host parser would read as the end of the host or as something else than a
// name ('a.b/c' → 'a.b'): such a domain is left as it is (and refused by the validation that follows).
const NOT_IN_A_NAME = /[\s/?#\\:@[\]%<>"^|]/u;

/**
 * The IDNA A-label of a non-ASCII domain (UTS #46 mapping, lower case), via the WHATWG URL host
 * parser (the same as node:url domainToASCII, and available in browsers); an ASCII domain lower
 * case, unchanged otherwise; null when a non-ASCII name does not convert.
 */
export function domainToALabel(domain: string): string | null {
  if (ASCII.test(domain)) return domain.toLowerCase();
  if (NOT_IN_A_NAME.test(domain.normalize('NFKC'))) return null;
  try {
    const host = new URL(`http://${domain}/`).hostname;
    return /^[a-z0-9.-]+$/.test(host) ? host : null;
  } catch {
    return null;
  }
}

/**
 * An address in the stored form: trimmed, lower case (the project's rule for e-mails, recipients
 * and lists), the domain after the last `@` as A-label. A domain that does not convert stays as
 * written (lower case): the caller's validation decides about it.
 */
export function normaliseAddress(raw: string): string {
  const lower = raw.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  const ascii = domainToALabel(lower.slice(at + 1));
  return ascii === null ? lower : `${lower.slice(0, at + 1)}${ascii}`;
}

/**
 * The address as written, but a non-ASCII domain as A-label: the spelling the release uses on the
 * wire (the local part's case kept; an ASCII domain is left as it came).
 */
export function withALabelDomain(raw: string): string {
  const at = raw.lastIndexOf('@');
  if (at < 0 || ASCII.test(raw.slice(at + 1))) return raw;
  const ascii = domainToALabel(raw.slice(at + 1));
  return ascii === null ? raw : `${raw.slice(0, at + 1)}${ascii}`;
}

/** Octets of the part before the last `@` (UTF-8). */
export function localPartOctets(address: string): number {
  const at = address.lastIndexOf('@');
  return new TextEncoder().encode(at < 0 ? address : address.slice(0, at)).length;
}

/**
 * A user's e-mail as the API takes it (accounts, profile, sign-in): U-label or A-label domain in,
 * the stored form out; `Invalid email format` (or `message`) when it is not an address, and a
 * specific message for a local part over 64 octets.
 */
export function emailAddress(messages: { required?: string; invalid?: string } = {}) {
  const invalid = messages.invalid ?? 'Invalid email format';
  return z
    .string({ error: messages.required ?? 'E-mail is required' })
    .trim()
    .min(1, messages.required ?? 'E-mail is required')
    .max(1024, invalid)
    .transform(normaliseAddress)
    .pipe(
      z
        .string()
        .max(254, invalid)
        .refine((v) => localPartOctets(v) <= LOCAL_PART_MAX_OCTETS, LOCAL_PART_TOO_LONG)
        .pipe(z.email(invalid)),
    );
}
