/**
 * Dates as the user reads them, in their language. One place for the console's date formats: the
 * remotes and the host use these, not their own Intl.DateTimeFormat.
 */

/**
 * A date-time of the API (ISO 8601) in the user's language and time zone: 'short' for tables
 * ("22/11/2026 06:06"), 'medium' with seconds for details. Unparsable text is returned as is.
 */
export function formatDateTime(iso: string, lang: string, style: 'short' | 'medium' = 'short'): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(lang, { dateStyle: style, timeStyle: style }).format(d);
}

/**
 * A day of the API ('YYYY-MM-DD', a UTC day) in the user's language: 'long' with the year
 * ("16 nov. 2026", "Nov 16, 2026") for sentences and tooltips, 'short' ("16 nov.", "Nov 16") for
 * axis labels. Formatted in UTC, so the day shown is the API's whatever the browser's zone.
 * Anything else is returned as is.
 */
export function formatUtcDay(day: string, lang: string, style: 'long' | 'short' = 'long'): string {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms)) return day;
  return new Intl.DateTimeFormat(lang, {
    day: 'numeric',
    month: 'short',
    ...(style === 'long' ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(ms);
}
