import { EMAIL_ACTIONS, type MailAction, type QuarantineStatus } from './quarantine.types';

/** Score bands (the spec's risk levels): the colour is never the only cue, the band is named too. */
export type ScoreBand = 'low' | 'medium' | 'high' | 'critical';

export function scoreBand(score: number): ScoreBand {
  if (score >= 15) return 'critical';
  if (score >= 10) return 'high';
  if (score >= 5) return 'medium';
  return 'low';
}

/** antd Tag preset colours. */
export const SCORE_COLORS: Record<ScoreBand, string> = {
  low: 'green',
  medium: 'gold',
  high: 'orange',
  critical: 'red',
};

export const ACTION_COLORS: Record<MailAction, string> = {
  reject: 'red',
  soft_reject: 'volcano',
  quarantine: 'purple',
  greylist: 'gold',
  rewrite_subject: 'blue',
  add_header: 'cyan',
  no_action: 'green',
  custom: 'default',
};

export const STATUS_COLORS: Record<QuarantineStatus, string> = {
  pending: 'processing',
  releasing: 'processing',
  released: 'success',
  deleted: 'default',
  release_failed: 'error',
  release_unknown: 'warning',
};

export function isKnownAction(a: string): a is MailAction {
  return (EMAIL_ACTIONS as readonly string[]).includes(a);
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** 2048 → "2 kB" / "2 ko": binary multiples, the language’s own unit names. */
export function formatSize(bytes: number, lang: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short', // "512 bytes" / "512 octets", then "12.5 kB" / "12,5 ko"
    maximumFractionDigits: unit === 0 || value >= 100 ? 0 : 1,
  }).format(value);
}

/** The language's decimal mark ("," in French), so a score is typed the way the list shows it. */
export function decimalSeparator(lang: string): string {
  return new Intl.NumberFormat(lang).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/** A count as the language writes it ("12 345" in French, "12,345" in English). */
export function formatCount(n: number, lang: string): string {
  return new Intl.NumberFormat(lang).format(n);
}

export function formatScore(score: number, lang: string): string {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(score);
}

/** A link that fills its table cell and is cut there with an ellipsis (its full text in its title). */
export const CELL_LINK = { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis' } as const;
