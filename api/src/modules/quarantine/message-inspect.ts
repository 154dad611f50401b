import { createHash } from 'node:crypto';
import type { MailAttachment, MailHeader } from '@qc/contracts';
import { fileTypeFromBuffer } from 'file-type';
import { simpleParser, type AddressObject } from 'mailparser';
import { PARSE_LIMITS } from './message-parser';

/**
 * What the detail shows that only the stored raw holds (issue 23): the headers as the mail carried
 * them, the From display name, and each attachment's bytes (SHA-256, type detected, download). Read
 * from the raw on demand, so no migration is needed and mail stored before keeps working.
 */

// Control characters other than tab are dropped from anything shown as text.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/g;
const clean = (v: string, max: number) => v.replace(CONTROL, '').slice(0, max);

function charsetDecoder(charset: string): TextDecoder {
  try {
    return new TextDecoder(charset.split('*')[0]!.trim() || 'utf-8');
  } catch {
    return new TextDecoder('utf-8');
  }
}

function qBytes(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '_') bytes.push(0x20);
    else if (c === '=' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c.charCodeAt(0) & 0xff);
  }
  return Buffer.from(bytes);
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=/gi;

/**
 * RFC 2047 encoded-words decoded (B and Q, any charset TextDecoder knows); the white space between
 * two adjacent encoded-words is dropped, as the RFC says. Anything else is kept as written.
 */
export function decodeEncodedWords(value: string): string {
  if (!value.includes('=?')) return value;
  // Adjacent words first: "=?..?= =?..?=" is one run of text.
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  return joined.replace(ENCODED_WORD, (word, charset: string, enc: string, text: string) => {
    try {
      const bytes = enc.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : qBytes(text);
      return charsetDecoder(charset).decode(bytes);
    } catch {
      return word;
    }
  });
}

/**
 * The headers in the order and spelling the mail carried them: each line's own name, its value
 * unfolded (the Date as written), encoded-words decoded. The raw source keeps them undecoded.
 */
export function carriedHeaders(lines: readonly { key: string; line: string }[]): MailHeader[] {
  return lines.slice(0, PARSE_LIMITS.headers).map(({ key, line }) => {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : key;
    const value = colon > 0 ? line.slice(colon + 1) : '';
    const unfolded = value.replace(/\r?\n(?=[ \t])/g, '').trim();
    return { name: clean(name, 200), value: clean(decodeEncodedWords(unfolded), PARSE_LIMITS.headerValue) };
  });
}

export interface InspectedAttachment extends MailAttachment {
  index: number;
  detected_type: string | null;
  sha256: string;
  content: Buffer;
}

export interface InspectedMessage {
  senderName: string | null;
  headers: MailHeader[];
  attachments: InspectedAttachment[];
}

function isAddressObject(v: unknown): v is AddressObject {
  return typeof v === 'object' && v !== null && 'value' in v && Array.isArray(v.value);
}

/** Reads the raw message; null when it does not parse (the stored fields are shown then). */
export async function inspectRaw(raw: Buffer): Promise<InspectedMessage | null> {
  let mail;
  try {
    mail = await simpleParser(raw, {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
    });
  } catch {
    return null;
  }
  const from = isAddressObject(mail.from) ? mail.from.value.find((a) => a.address) : undefined;
  const name = from?.name ? clean(from.name, 320).trim() : '';
  const attachments = await Promise.all(
    mail.attachments.slice(0, PARSE_LIMITS.attachments).map(async (a, index) => {
      const content = Buffer.isBuffer(a.content) ? a.content : Buffer.alloc(0);
      const detected = content.length ? await fileTypeFromBuffer(content).catch(() => undefined) : undefined;
      return {
        index,
        name: clean(a.filename ?? '', PARSE_LIMITS.attachmentName),
        type: clean(a.contentType || 'application/octet-stream', 255),
        size: a.size ?? content.length,
        detected_type: detected?.mime ?? null,
        sha256: createHash('sha256').update(content).digest('hex'),
        content,
      };
    }),
  );
  return { senderName: name || null, headers: carriedHeaders(mail.headerLines ?? []), attachments };
}

/** What the detail takes from the stored raw, when there still is one. */
export interface RawDetail {
  sender_name: string | null;
  headers: MailHeader[];
  attachments: MailAttachment[];
}

/** The detail's raw-derived fields; null when the raw is gone or does not parse (the stored ones stay). */
export async function rawDetail(raw: Buffer | undefined): Promise<RawDetail | null> {
  const inspected = raw ? await inspectRaw(raw) : null;
  if (!inspected) return null;
  return {
    sender_name: inspected.senderName,
    headers: inspected.headers,
    // The bytes stay here: the download route sends them.
    attachments: inspected.attachments.map(({ content: _content, ...a }) => a),
  };
}

/**
 * The name shown for a message whose raw is gone: the display name mailparser kept in the stored
 * From header (`Name <address>`), else none.
 */
export function storedSenderName(headers: MailHeader[]): string | null {
  const from = headers.find((h) => h.name.toLowerCase() === 'from')?.value ?? '';
  const m = /^\s*"?(.*?)"?\s*<[^<>]*>\s*$/.exec(from);
  return m?.[1]?.trim() || null;
}
