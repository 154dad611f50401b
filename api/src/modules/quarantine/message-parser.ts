import type { MailAttachment, MailHeader } from '@qc/contracts';
import { simpleParser, type AddressObject, type HeaderValue } from 'mailparser';

/** Caps on what is kept from a (possibly hostile) message; the raw bytes are always kept whole. */
export const PARSE_LIMITS = {
  subject: 4000,
  headers: 300,
  headerValue: 8000,
  attachments: 200,
  attachmentName: 255,
  urls: 200,
  url: 2048,
  /** How much of the text and HTML bodies is scanned for URLs. */
  urlScan: 2 * 1024 * 1024,
  textBody: 256 * 1024,
  htmlBody: 1024 * 1024,
} as const;

export interface ParsedMessage {
  /** Address of the first header From, lower-cased domain part. */
  from: string | null;
  mimeUser: string | null;
  mimeDomain: string | null;
  subject: string | null;
  date: number | null;
  messageId: string | null;
  attachments: MailAttachment[];
  urls: string[];
  headers: MailHeader[];
  textBody: string | null;
  htmlBody: string | null;
  bodyTruncated: boolean;
  /** Why the message could not be parsed (the raw bytes are still stored); null when it was. */
  error: string | null;
}

const EMPTY: Omit<ParsedMessage, 'error'> = {
  from: null,
  mimeUser: null,
  mimeDomain: null,
  subject: null,
  date: null,
  messageId: null,
  attachments: [],
  urls: [],
  headers: [],
  textBody: null,
  htmlBody: null,
  bodyTruncated: false,
};

// Control characters other than tab/newline are dropped from anything shown as text.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const clean = (v: string, max: number) => v.replace(CONTROL, '').slice(0, max);
// PostgreSQL's text cannot hold NUL (a decoded "=00" in a body): it would refuse the mail for good.
const NUL = /\u0000/g;
export const withoutNul = (v: string) => v.replace(NUL, '');

function splitAddress(address: string): { user: string; domain: string } | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return null;
  return { user: address.slice(0, at), domain: address.slice(at + 1).toLowerCase() };
}

function isAddressObject(v: unknown): v is AddressObject {
  return typeof v === 'object' && v !== null && 'value' in v && 'text' in v && Array.isArray(v.value);
}

/** A parsed header value as display text (addresses as written, dates ISO, structured values with params). */
function headerText(value: HeaderValue): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (Array.isArray(value)) return value.map((v) => headerText(v as HeaderValue)).join(', ');
  if (isAddressObject(value)) return value.text;
  if (typeof value === 'object' && value !== null && 'value' in value) {
    const params = Object.entries((value as { params?: Record<string, string> }).params ?? {});
    return [String(value.value), ...params.map(([k, v]) => `${k}=${v}`)].join('; ');
  }
  return String(value);
}

// Linear patterns only (no nested quantifiers): safe on hostile input.
const TEXT_URL = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi;
const TRAILING = /[.,;:!?)\]}]+$/;

function decodeEntities(v: string): string {
  return v
    .replace(/&#x([0-9a-f]{1,6});?/gi, (_, h: string) => safeCodePoint(parseInt(h, 16)))
    .replace(/&#(\d{1,7});?/g, (_, d: string) => safeCodePoint(Number(d)))
    .replace(/&quot;/gi, '"')
    .replace(/&apos;/gi, "'")
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&amp;/gi, '&');
}

function safeCodePoint(n: number): string {
  return n > 0x1f && n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

/** Detected URLs: http(s) links in the text and the HTML's hrefs, de-duplicated in order of appearance, capped. */
export function extractUrls(text: string | null, html: string | null): string[] {
  const seen = new Set<string>();
  const add = (candidate: string) => {
    const url = clean(candidate.trim(), PARSE_LIMITS.url);
    if (/^https?:\/\/[^\s]/i.test(url) && seen.size < PARSE_LIMITS.urls) seen.add(url);
  };
  if (html) {
    const scan = html.slice(0, PARSE_LIMITS.urlScan);
    for (const m of scan.matchAll(HREF)) add(decodeEntities(m[1] ?? m[2] ?? m[3] ?? ''));
    for (const m of scan.replace(/<[^>]*>/g, ' ').matchAll(TEXT_URL)) add(decodeEntities(m[0].replace(TRAILING, '')));
  }
  if (text) for (const m of text.slice(0, PARSE_LIMITS.urlScan).matchAll(TEXT_URL)) add(m[0].replace(TRAILING, ''));
  return [...seen];
}

/**
 * Parses a raw message (mailparser) into what the console stores. Never throws: a message that does
 * not parse (e.g. a header block over mailparser's limit) is kept with empty fields and `error` set.
 */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  let mail;
  try {
    mail = await simpleParser(raw, {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
    });
  } catch (err) {
    return { ...EMPTY, error: err instanceof Error ? err.message : String(err) };
  }

  const fromHeader = mail.from && isAddressObject(mail.from) ? mail.from : undefined;
  const fromAddress = fromHeader?.value.find((a) => a.address)?.address?.trim() || null;
  const parts = fromAddress ? splitAddress(fromAddress) : null;

  // headers is a Map (a "__proto__" header is just a key); only arrays leave this function.
  const headers: MailHeader[] = [];
  for (const [name, value] of mail.headers) {
    for (const one of Array.isArray(value) && typeof value[0] === 'string' ? value : [value]) {
      if (headers.length >= PARSE_LIMITS.headers) break;
      headers.push({ name: clean(name, 200), value: clean(headerText(one as HeaderValue), PARSE_LIMITS.headerValue) });
    }
  }

  const attachments: MailAttachment[] = mail.attachments.slice(0, PARSE_LIMITS.attachments).map((a) => ({
    name: clean(a.filename ?? '', PARSE_LIMITS.attachmentName),
    type: clean(a.contentType || 'application/octet-stream', 255),
    size: a.size ?? a.content?.length ?? 0,
  }));

  const text = typeof mail.text === 'string' ? mail.text : null;
  const html = typeof mail.html === 'string' ? mail.html : null;
  const date = mail.date instanceof Date && !Number.isNaN(mail.date.getTime()) ? mail.date.getTime() : null;
  return {
    from: fromAddress ? clean(fromAddress, 320) : null,
    mimeUser: parts ? clean(parts.user, 320) : null,
    mimeDomain: parts ? clean(parts.domain, 255) : null,
    subject: typeof mail.subject === 'string' ? clean(mail.subject, PARSE_LIMITS.subject) : null,
    date,
    messageId: typeof mail.messageId === 'string' ? clean(mail.messageId, 998) : null,
    attachments,
    urls: extractUrls(text, html),
    headers,
    textBody: text === null ? null : withoutNul(text.slice(0, PARSE_LIMITS.textBody)),
    htmlBody: html === null ? null : withoutNul(html.slice(0, PARSE_LIMITS.htmlBody)),
    bodyTruncated: (text?.length ?? 0) > PARSE_LIMITS.textBody || (html?.length ?? 0) > PARSE_LIMITS.htmlBody,
    error: null,
  };
}
