import { LIST_LIMITS } from '@qc/contracts';
import { domainToUnicode } from 'node:url';
import { normaliseDomainName } from '../domains/domains.service';

/**
 * The stored form of a list address (issue 18 preamble): lower case, `local@domain` with the domain
 * as IDNA A-label, the local part at most 64 octets, the whole at most 254 characters; or `@domain`
 * for every sender of a domain. The map Rspamd reads compares these strings as they are.
 */

// A dot-atom local part (RFC 5321 §4.1.2), UTF-8 allowed (RFC 6531): no quotes, spaces, controls
// or the specials that would make the address ambiguous in a map or a header. `*` and `?` are
// refused too: the lists have no wildcards, and `*@x` would silently match only itself.
const LOCAL_PART = /^[^\s\x00-\x1f\x7f"(),:;<>@[\\\]*?]+$/u;
// Invisible characters that would make two entries look the same, or an address read backwards in
// the lists page: format characters (bidi overrides, zero-width joiners, BOM) and C1 controls.
const INVISIBLE = /[\p{Cf}\u0080-\u009f]/u;

/** The stored form, or null when `raw` is neither an address nor `@domain`. */
export function normaliseListAddress(raw: string): string | null {
  const input = raw.trim().toLowerCase();
  const at = input.lastIndexOf('@');
  if (at < 0) return null;
  const local = input.slice(0, at);
  const domain = normaliseDomainName(input.slice(at + 1));
  if (!domain) return null;
  if (local !== '') {
    if (Buffer.byteLength(local, 'utf8') > LIST_LIMITS.localPart) return null;
    if (
      !LOCAL_PART.test(local) ||
      INVISIBLE.test(local) ||
      local.startsWith('.') ||
      local.endsWith('.') ||
      local.includes('..')
    )
      return null;
  }
  const stored = `${local}@${domain}`;
  return stored.length > LIST_LIMITS.address ? null : stored;
}

/** The address with its domain in Unicode when it is an IDN (for display), else null. */
export function unicodeAddress(stored: string): string | null {
  const at = stored.lastIndexOf('@');
  const domain = stored.slice(at + 1);
  if (!domain.split('.').some((label) => label.startsWith('xn--'))) return null;
  const unicode = domainToUnicode(domain);
  return unicode && unicode !== domain ? `${stored.slice(0, at)}@${unicode}` : null;
}
