import type { FastifyReply } from 'fastify';

/**
 * Characters no file name should carry: controls and invisible format characters (a right-to-left
 * override turns "gpj.exe" into what reads as "exe.jpg"), line breaks, and those file systems or
 * shells treat specially.
 */
const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\:*?"<>|]+/gu;

/** A part of a file name, as written (any script), cut to `max` characters. */
export function namePart(text: string, max = 80): string {
  const cleaned = text.normalize('NFC').replace(UNSAFE_IN_NAME, '_').replace(/\s+/g, ' ');
  return [...cleaned]
    .slice(0, max)
    .join('')
    .replace(/^[\s._]+|[\s._]+$/g, '');
}

/** Its ASCII spelling: accents dropped, anything else an underscore. */
function asciiPart(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/__+/g, '_')
    .replace(/^[._]+|[._]+$/g, '');
}

/** RFC 5987 value-chars: encodeURIComponent leaves ' ( ) * as they are, which are not allowed. */
const rfc5987 = (text: string) =>
  encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `attachment` naming the file twice (RFC 6266 §4.3): in ASCII in `filename` for clients that know
 * nothing else, and as written in `filename*`, so an Arabic or Cyrillic subject is not reduced to
 * underscores. `fallback` stands in for a name with no ASCII letter or digit.
 */
export function attachment(name: string, suffix: string, fallback: string): string {
  const written = namePart(name) || fallback;
  const ascii = asciiPart(written) || fallback;
  return `attachment; filename="${ascii}${suffix}"; filename*=UTF-8''${rfc5987(written + suffix)}`;
}

/** Sends stored bytes as a file to save, never as something the browser would render or cache. */
export function sendDownload(reply: FastifyReply, file: { type: string; disposition: string; data: Buffer }) {
  return reply
    .header('content-type', file.type)
    .header('content-disposition', file.disposition)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .send(file.data);
}
