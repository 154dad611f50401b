/**
 * A day of the statistics api ('YYYY-MM-DD', a UTC day) in the user's language: 'long' with the
 * year ("16 nov. 2026", "Nov 16, 2026") for sentences and tooltips, 'short' ("16 nov.", "Nov 16")
 * for axis labels. Formatted in UTC, so the day shown is the api's whatever the browser's zone.
 * Anything else is returned as is.
 */
export function formatDay(day: string, lang: string, style: 'long' | 'short' = 'long'): string {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms)) return day;
  return new Intl.DateTimeFormat(lang, {
    day: 'numeric',
    month: 'short',
    ...(style === 'long' ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(ms);
}
