import { DIGEST_LIMITS, type DigestAction, type RspamdSymbol } from '@qc/contracts';
import type { Config } from '../../config';
import type { MailMessage } from '../../lib/mailer';
import { signDigestLink } from './digest-link';
import type { DigestItem, DigestKind, DigestLanguage, PendingDigest } from './digest.repository';
import { DIGEST_STRINGS, type DigestStrings } from './digest.strings';

const DAY_MS = 24 * 3600 * 1000;
/**
 * The unsubscribe link (List-Unsubscribe, footer) outlives the action links: an old digest in a
 * mailbox should still turn notifications off.
 */
export const UNSUBSCRIBE_TTL_MS = 90 * DAY_MS;

export type DigestComposeConfig = Pick<Config, 'secretKey' | 'publicUrl' | 'retentionDays'>;

export interface DigestMailInput {
  language: DigestLanguage;
  kind: DigestKind;
  userId: string;
  /** The user's e-mail (their primary address): where it goes. */
  address: string;
  /** Kind user: the addresses whose mail it lists (all of the user's, primary first); default [address]. */
  addresses?: string[];
  /** Kind domain: the domain listed. */
  domain: string | null;
  timeZone: string;
  pending: PendingDigest;
  now: number;
  /** A test digest ("send me a test"): said in the subject and intro. */
  test?: boolean;
}

type ItemAction = Exclude<DigestAction, 'unsubscribe'>;
const ITEM_ACTIONS: ItemAction[] = ['release', 'allow_sender', 'delete'];

// Text from a held mail is the sender's: C0/C1 controls (line breaks included) become spaces, and
// invisible direction/zero-width controls are shown as [U+XXXX], as the console's list shows them
// (remote-mail bidi.ts), so "gnp.exe" tricks and fake line breaks do not carry into the digest.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const BIDI_CONTROLS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** A mail-supplied string made safe to show as text: controls out, bidi revealed, at most `max` characters. */
export function cleanMailText(value: string, max: number): string {
  let s = value.replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...s];
  if (chars.length > max) s = `${chars.slice(0, max - 1).join('')}…`;
  return s.replace(BIDI_CONTROLS, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The strongest reasons: highest score first, at most DIGEST_LIMITS.symbols. */
export function topSymbols(symbols: RspamdSymbol[]): RspamdSymbol[] {
  return symbols
    .filter((s) => s && typeof s.symbol === 'string')
    .slice()
    .sort((a, b) => (Number(b.score) || 0) - (Number(a.score) || 0))
    .slice(0, DIGEST_LIMITS.symbols);
}

interface ShownItem {
  date: string;
  sender: string;
  subject: string;
  score: string | null;
  reasons: string[];
  links: Record<ItemAction, string>;
}

function linkUrl(config: DigestComposeConfig, token: string) {
  return `${config.publicUrl}/digest/${token}`;
}

/** A link works DIGEST_LIMITS.linkTtlMs, and not after retention removes the message's original. */
function linkExpiry(config: DigestComposeConfig, item: DigestItem, now: number): number {
  const ttl = now + DIGEST_LIMITS.linkTtlMs;
  return config.retentionDays > 0 ? Math.min(ttl, item.received_at + config.retentionDays * DAY_MS) : ttl;
}

function shownItems(config: DigestComposeConfig, input: DigestMailInput, t: DigestStrings): ShownItem[] {
  const date = new Intl.DateTimeFormat(t.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: input.timeZone });
  const num = new Intl.NumberFormat(t.locale, { maximumFractionDigits: 2 });
  return input.pending.items.slice(0, DIGEST_LIMITS.items).map((item) => {
    const expiresAt = linkExpiry(config, item, input.now);
    const links = Object.fromEntries(
      ITEM_ACTIONS.map((action) => [
        action,
        linkUrl(
          config,
          signDigestLink(config.secretKey, {
            userId: input.userId,
            action,
            messageId: item.id,
            kind: input.kind,
            expiresAt,
          }),
        ),
      ]),
    ) as Record<ItemAction, string>;
    return {
      date: date.format(item.received_at),
      sender: cleanMailText(item.sender, 200),
      subject: item.subject === null ? t.noSubject : cleanMailText(item.subject, 200) || t.noSubject,
      score: item.score === null ? null : num.format(item.score),
      reasons: topSymbols(item.symbols).map((s) => {
        const name = cleanMailText(s.symbol, 80);
        const description = s.description ? cleanMailText(s.description, 160) : '';
        return `${name}${description ? ` – ${description}` : ''} (${num.format(Number(s.score) || 0)})`;
      }),
      links,
    };
  });
}

const BUTTON_COLOURS: Record<ItemAction, string> = {
  release: '#1e7b34',
  allow_sender: '#1f5fbf',
  delete: '#b3261e',
};

function html(parts: Parts, t: DigestStrings, language: DigestLanguage): string {
  const e = escapeHtml;
  const p = (text: string, style = '') => `<p style="margin:0 0 12px 0;${style}">${e(text)}</p>`;
  const button = (action: ItemAction, href: string) =>
    `<a href="${e(href)}" style="display:inline-block;margin:0 6px 6px 0;padding:6px 12px;border-radius:4px;` +
    `background-color:${BUTTON_COLOURS[action]};color:#ffffff;text-decoration:none;font-weight:bold;">` +
    `${e(t.actions[action])}</a>`;
  const items = parts.items
    .map(
      (item) =>
        `<tr><td style="padding:12px;border:1px solid #8c8c8c;border-radius:6px;">` +
        `<div style="font-size:12px;">${e(item.date)}${item.score === null ? '' : ` · ${e(t.score)} ${e(item.score)}`}</div>` +
        `<div style="font-size:16px;font-weight:bold;margin:4px 0;word-break:break-word;">${e(item.subject)}</div>` +
        `<div style="margin:0 0 4px 0;word-break:break-all;">${e(t.from)}${e(t.colon)}${e(item.sender)}</div>` +
        (item.reasons.length
          ? `<div style="font-size:12px;margin:0 0 8px 0;">${e(t.why)}${e(t.colon.trimEnd())}<br>${item.reasons.map(e).join('<br>')}</div>`
          : '') +
        `<div>${ITEM_ACTIONS.map((a) => button(a, item.links[a])).join('')}</div>` +
        `</td></tr><tr><td style="height:10px;line-height:10px;font-size:0;">&nbsp;</td></tr>`,
    )
    .join('');
  return (
    `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">` +
    `<title>${e(parts.subject)}</title></head>` +
    `<body style="margin:0;padding:0;">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate;">` +
    `<tr><td align="center" style="padding:16px;">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" ` +
    `style="max-width:640px;border-collapse:separate;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.45;">` +
    `<tr><td style="padding:0 0 12px 0;"><h1 style="margin:0;font-size:20px;">${e(parts.heading)}</h1></td></tr>` +
    `<tr><td>${parts.lead.map((l) => p(l)).join('')}</td></tr>` +
    items +
    `<tr><td style="padding:4px 0 0 0;">` +
    `<p style="margin:0 0 16px 0;"><a href="${e(parts.consoleUrl)}" style="font-weight:bold;">${e(t.openConsole)}</a></p>` +
    parts.notes.map((n) => p(n, 'font-size:12px;')).join('') +
    `<p style="margin:0;font-size:12px;">${e(t.footer(parts.kind))} ` +
    `<a href="${e(parts.unsubscribeUrl)}">${e(t.unsubscribe)}</a></p>` +
    `</td></tr></table></td></tr></table></body></html>`
  );
}

function text(parts: Parts, t: DigestStrings): string {
  const lines: string[] = [parts.heading, '', ...parts.lead.flatMap((l) => [l, ''])];
  for (const item of parts.items) {
    lines.push(`* ${item.subject}`, `  ${item.date}${item.score === null ? '' : ` · ${t.score} ${item.score}`}`);
    lines.push(`  ${t.from}${t.colon}${item.sender}`);
    if (item.reasons.length) lines.push(`  ${t.why}${t.colon}${item.reasons.join('; ')}`);
    for (const a of ITEM_ACTIONS) lines.push(`  ${t.actions[a]}${t.colon}${item.links[a]}`);
    lines.push('');
  }
  lines.push(`${t.openConsole}${t.colon}${parts.consoleUrl}`, '', ...parts.notes.flatMap((n) => [n, '']));
  lines.push('-- ', t.footer(parts.kind), `${t.unsubscribe}${t.colon}${parts.unsubscribeUrl}`, '');
  return lines.join('\n');
}

interface Parts {
  kind: DigestKind;
  subject: string;
  heading: string;
  lead: string[];
  items: ShownItem[];
  notes: string[];
  consoleUrl: string;
  unsubscribeUrl: string;
}

/**
 * The digest e-mail (HTML and plain text, in the user's language): the count, the newest
 * DIGEST_LIMITS.items items with signed single-use links per action, the console, and the
 * one-click unsubscribe (RFC 8058 headers; its api URL takes the POST).
 */
export function composeDigest(config: DigestComposeConfig, input: DigestMailInput): MailMessage {
  const t = DIGEST_STRINGS[input.language];
  const { count } = input.pending;
  const items = shownItems(config, input, t);
  const unsubscribeToken = signDigestLink(config.secretKey, {
    userId: input.userId,
    action: 'unsubscribe',
    messageId: null,
    kind: input.kind,
    expiresAt: input.now + UNSUBSCRIBE_TTL_MS,
  });
  const target = input.kind === 'domain' ? (input.domain ?? '') : (input.addresses ?? [input.address]).join(', ');
  const lead =
    count === 0
      ? [t.nothingPending]
      : [
          t.intro(count, input.kind, target, Boolean(input.test)),
          ...(count > items.length ? [t.newestShown(items.length, count)] : []),
          t.timesIn(input.timeZone),
        ];
  const latestExpiry = Math.max(input.now, ...input.pending.items.map((i) => linkExpiry(config, i, input.now)));
  const expires = new Intl.DateTimeFormat(t.locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: input.timeZone,
  }).format(latestExpiry);
  const parts: Parts = {
    kind: input.kind,
    subject: `${input.test ? t.testPrefix : ''}${t.subject(count, input.kind, input.domain)}`,
    heading: t.heading(input.kind, input.domain),
    lead,
    items,
    notes: items.length ? [t.linksNote(expires), ...(input.kind === 'domain' ? [t.domainNote] : [])] : [],
    consoleUrl: `${config.publicUrl}/quarantine`,
    unsubscribeUrl: linkUrl(config, unsubscribeToken),
  };
  return {
    to: input.address,
    subject: parts.subject,
    text: text(parts, t),
    html: html(parts, t, input.language),
    headers: {
      'List-Unsubscribe': `<${config.publicUrl}/api/digest/${unsubscribeToken}/>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      // RFC 3834: an automatic message (no out-of-office replies to it).
      'Auto-Submitted': 'auto-generated',
    },
  };
}
