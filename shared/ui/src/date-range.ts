/**
 * Date presets of spec §9 (today, yesterday, last 2, 7, 30 and 90 days, custom), computed in the
 * user's LOCAL time (DESIGN §5: day buckets are UTC on the server, the UI converts local days) and
 * sent as ISO 8601 with the local offset. Pure: no antd, no dayjs, no React.
 */
export const DATE_PRESETS = [
  'today',
  'yesterday',
  'last_2_days',
  'last_7_days',
  'last_30_days',
  'last_90_days',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/** A preset, or a custom range of local days. */
export type DatePeriod = DatePreset | 'custom';

export interface LocalDateRange {
  /** First instant of the first local day. */
  from: Date;
  /** Last millisecond of the last local day (inclusive bound). */
  to: Date;
}

const DAYS_BACK: Record<DatePreset, { first: number; last: number }> = {
  today: { first: 0, last: 0 },
  yesterday: { first: 1, last: 1 },
  last_2_days: { first: 1, last: 0 },
  last_7_days: { first: 6, last: 0 },
  last_30_days: { first: 29, last: 0 },
  last_90_days: { first: 89, last: 0 },
};

export function isDatePreset(v: unknown): v is DatePreset {
  return typeof v === 'string' && (DATE_PRESETS as readonly string[]).includes(v);
}

/** 00:00:00.000 local of the day `daysBack` days before `d` (calendar arithmetic: right across DST changes). */
export function startOfLocalDay(d: Date, daysBack = 0): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - daysBack, 0, 0, 0, 0);
}

/** 23:59:59.999 local of the day `daysBack` days before `d`. */
export function endOfLocalDay(d: Date, daysBack = 0): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - daysBack, 23, 59, 59, 999);
}

/** "Last N days" = the N local calendar days ending today (today included). */
export function presetRange(preset: DatePreset, now: Date = new Date()): LocalDateRange {
  const { first, last } = DAYS_BACK[preset];
  return { from: startOfLocalDay(now, first), to: endOfLocalDay(now, last) };
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' → that local day at 00:00, or null when it is not a real date. */
export function parseLocalDay(s: string | null | undefined): Date | null {
  const m = s ? DAY_RE.exec(s) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d ? date : null;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The local day of `d` as 'YYYY-MM-DD' (what a URL keeps for a custom range). */
export function toLocalDay(d: Date): string {
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A custom range of local days (inclusive, either order), or null when a day is invalid. */
export function localDaysRange(fromDay: string, toDay: string): LocalDateRange | null {
  const a = parseLocalDay(fromDay);
  const b = parseLocalDay(toDay);
  if (!a || !b) return null;
  const [first, last] = a.getTime() <= b.getTime() ? [a, b] : [b, a];
  return { from: startOfLocalDay(first), to: endOfLocalDay(last) };
}

/**
 * ISO 8601 with the offset in force at that instant, e.g. '2026-11-21T00:00:00.000+01:00'
 * (`Date#toISOString` would give UTC 'Z', losing the user's day boundary).
 * `offsetMinutes` (east of UTC) defaults to the local offset at `d`.
 */
export function toIsoWithOffset(d: Date, offsetMinutes: number = -d.getTimezoneOffset()): string {
  const wall = new Date(d.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  return (
    `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}.${pad(wall.getUTCMilliseconds(), 3)}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
