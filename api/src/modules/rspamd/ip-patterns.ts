import { isIP } from 'node:net';
import { PatternError } from './pattern-error';

/**
 * Strict IP addresses and networks, in the canonical form Rspamd's radix maps read the same way:
 * IPv4 dotted decimal without leading zeros, IPv6 compressed lower case (RFC 5952), a network as
 * `address/prefix` with its host bits zero. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is the
 * IPv4 client it stands for: stored as IPv4.
 */
export interface IpValue {
  version: 4 | 6;
  /** The address as an unsigned integer (32 or 128 bits). */
  bits: bigint;
}

const V4_MAPPED = 0xffffn << 32n; // ::ffff:0:0/96

export function parseIPv4(raw: string): bigint {
  const parts = raw.split('.');
  if (parts.length !== 4)
    throw new PatternError(`An IPv4 address has 4 numbers separated by dots (${raw} has ${parts.length})`);
  let bits = 0n;
  for (const part of parts) {
    if (!/^\d+$/.test(part)) throw new PatternError(`"${part}" is not a number 0 to 255 (in ${raw})`);
    if (part.length > 1 && part.startsWith('0')) {
      throw new PatternError(`Leading zeros are not allowed in an IPv4 address ("${part}" in ${raw})`);
    }
    const n = Number(part);
    if (n > 255) throw new PatternError(`Each number of an IPv4 address is 0 to 255 (${part} is not)`);
    bits = (bits << 8n) | BigInt(n);
  }
  return bits;
}

function parseIPv6(raw: string): bigint {
  if (raw.includes('%')) throw new PatternError('A zone index (%…) is not allowed in an IPv6 address');
  // The embedded IPv4 of a mixed form is checked by the strict IPv4 rules (no leading zeros).
  const tail = raw.slice(raw.lastIndexOf(':') + 1);
  let text = raw;
  let v4: bigint | null = null;
  if (tail.includes('.')) {
    v4 = parseIPv4(tail);
    text = `${raw.slice(0, raw.length - tail.length)}0:0`;
  }
  if (isIP(text) !== 6) throw new PatternError(`${raw} is not a valid IPv6 address`);
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = groups(rest);
  const all = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  let bits = 0n;
  for (const g of all) bits = (bits << 16n) | BigInt(parseInt(g, 16));
  if (v4 !== null) bits = (bits & ~0xffffffffn) | v4;
  return bits;
}

export function parseIp(raw: string): IpValue {
  if (raw.includes(':')) {
    const bits = parseIPv6(raw);
    return bits >> 32n === V4_MAPPED >> 32n ? { version: 4, bits: bits & 0xffffffffn } : { version: 6, bits };
  }
  return { version: 4, bits: parseIPv4(raw) };
}

export function formatIp({ version, bits }: IpValue): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((s) => String((bits >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((bits >> BigInt(112 - 16 * i)) & 0xffffn));
  // RFC 5952: the longest run of two or more zero groups (the first of equals) becomes `::`.
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}

/** An IP or a network: `{exact}` for an address (a /32 or /128 too), `{cidr}` for a network. */
export function normaliseIpOrCidr(raw: string): { value: string; pattern_type: 'exact' | 'cidr' } {
  const input = raw.trim().toLowerCase();
  const slash = input.indexOf('/');
  if (slash < 0) return { value: formatIp(parseIp(input)), pattern_type: 'exact' };
  const address = input.slice(0, slash);
  const prefixText = input.slice(slash + 1);
  const written = parseIp(address);
  const mapped = address.includes(':') && written.version === 4;
  const width = mapped ? 128 : written.version === 4 ? 32 : 128;
  if (!/^(0|[1-9]\d{0,2})$/.test(prefixText) || Number(prefixText) > width) {
    throw new PatternError(
      `The prefix length of an IPv${width === 32 ? 4 : 6} network is 0 to ${width} (/${prefixText} is not)`,
    );
  }
  let prefix = Number(prefixText);
  let ip = written;
  if (mapped) {
    // ::ffff:a.b.c.d/p with p ≥ 96 is the IPv4 network a.b.c.d/(p-96); a shorter prefix stays IPv6.
    if (prefix >= 96) prefix -= 96;
    else ip = { version: 6, bits: V4_MAPPED | written.bits };
  }
  const size = ip.version === 4 ? 32 : 128;
  const hostMask = (1n << BigInt(size - prefix)) - 1n;
  const network = { version: ip.version, bits: ip.bits & ~hostMask };
  if (ip.bits & hostMask) {
    throw new PatternError(
      `Host bits are set: the network is ${formatIp(network)}/${prefix} (or write the single address ${formatIp(ip)})`,
    );
  }
  if (prefix === size) return { value: formatIp(ip), pattern_type: 'exact' };
  return { value: `${formatIp(network)}/${prefix}`, pattern_type: 'cidr' };
}

/** `192.0.2.*` (whole trailing numbers only) → the network `192.0.2.0/24`. */
export function ipWildcardToCidr(raw: string): { value: string; pattern_type: 'exact' | 'cidr' } {
  const input = raw.trim();
  if (input.includes('?'))
    throw new PatternError('? is not allowed in an IP pattern: use * for whole numbers (192.0.2.*)');
  if (input.includes(':'))
    throw new PatternError('Wildcards are for IPv4: write an IPv6 network as a CIDR (2001:db8::/32)');
  const parts = input.split('.');
  if (parts.length !== 4) throw new PatternError('An IPv4 wildcard has 4 parts separated by dots (192.0.2.*)');
  const firstStar = parts.findIndex((p) => p.includes('*'));
  if (firstStar < 0) return normaliseIpOrCidr(input);
  if (parts.slice(firstStar).some((p) => p !== '*')) {
    throw new PatternError('Only whole trailing numbers can be wildcards (192.0.2.* or 10.*.*.*)');
  }
  const fixed = parts.map((p) => (p === '*' ? '0' : p)).join('.');
  return normaliseIpOrCidr(`${fixed}/${firstStar * 8}`);
}
